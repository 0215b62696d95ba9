"""Which language a page is served in, and how a reader changes it."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games.models import Player
from tests.site.conftest import client_for

pytestmark = pytest.mark.django_db


def test_it_offers_the_five_languages_each_named_in_its_own() -> None:
    assert dict(settings.LANGUAGES) == {
        "en": "English",
        "fr": "Français",
        "ru": "Русский",
        "hy": "Հայերեն",
        "ka": "ქართული",
    }


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("hy", "hy"),
        ("ka-GE,ka;q=0.9", "ka"),
        ("ru-RU,ru;q=0.9,en;q=0.5", "ru"),
        ("fr-CA", "fr"),
        ("de-DE,de;q=0.9", "en"),
    ],
)
def test_it_serves_a_first_visit_in_the_browsers_language(header: str, expected: str) -> None:
    response = Client(HTTP_ACCEPT_LANGUAGE=header).get(reverse("lobby"))
    assert response["Content-Language"] == expected
    assert f'<html lang="{expected}">' in response.content.decode()


def test_it_keeps_urls_the_same_in_every_language() -> None:
    for language in ("en", "ru", "hy"):
        response = Client(HTTP_ACCEPT_LANGUAGE=language).get("/rules/belote/")
        assert response.status_code == 200


def test_it_remembers_a_visitors_choice_in_a_cookie() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = client.post(reverse("set_language"), {"language": "ka", "next": "/rules/belote/"})
    assert response.status_code == 302 and response["Location"] == "/rules/belote/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ka"
    page = client.get(reverse("lobby"))
    assert page["Content-Language"] == "ka"
    assert "ლობი" in page.content.decode()


def test_it_saves_a_signed_in_players_choice_on_their_profile(alice) -> None:
    client = client_for(alice)
    client.post(reverse("set_language"), {"language": "hy", "next": "/"})
    assert Player.objects.get(user=alice).language == "hy"
    # Another device, another browser language: the profile wins.
    elsewhere = Client(HTTP_ACCEPT_LANGUAGE="fr")
    elsewhere.force_login(alice)
    assert elsewhere.get(reverse("lobby"))["Content-Language"] == "hy"


def test_it_refuses_an_unknown_language_and_changes_nothing(alice) -> None:
    Player.objects.filter(user=alice).update(language="ru")
    client = client_for(alice)
    response = client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
    assert Player.objects.get(user=alice).language == "ru"


def test_it_only_changes_language_on_a_post() -> None:
    response = Client().get(reverse("set_language"), {"language": "ru"})
    assert response.status_code == 405


def test_it_does_not_redirect_to_another_site() -> None:
    response = Client().post(
        reverse("set_language"), {"language": "ru", "next": "https://evil.example/"}
    )
    assert response.status_code == 302 and response["Location"] == "/"


def test_it_draws_the_switcher_as_a_form_with_no_inline_script() -> None:
    html = Client(HTTP_ACCEPT_LANGUAGE="ru").get(reverse("lobby")).content.decode()
    assert f'action="{reverse("set_language")}"' in html
    assert '<option value="ru" lang="ru" selected>Русский</option>' in html
    assert "<noscript><button" in html  # works without the script too
    assert "onchange" not in html and "<script>" not in html


def test_it_localises_dates(alice) -> None:
    alice_player = Player.objects.get(user=alice)
    month = alice_player.created_at.month
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("profile", args=["alice"]))
    russian = Client(HTTP_ACCEPT_LANGUAGE="ru").get(reverse("profile", args=["alice"]))
    months_ru = [
        "января",
        "февраля",
        "марта",
        "апреля",
        "мая",
        "июня",
        "июля",
        "августа",
        "сентября",
        "октября",
        "ноября",
        "декабря",
    ]
    assert months_ru[month - 1] in russian.content.decode()
    assert months_ru[month - 1] not in english.content.decode()


def test_it_writes_armenian_dates_day_first(alice) -> None:
    created = Player.objects.get(user=alice).created_at
    html = Client(HTTP_ACCEPT_LANGUAGE="hy").get(reverse("profile", args=["alice"]))
    assert created.strftime("%d.%m.%Y") in html.content.decode()


def test_it_keeps_a_visitors_language_when_they_sign_up() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.post(reverse("set_language"), {"language": "ka", "next": "/"})
    response = client.post(
        reverse("signup"),
        {
            "username": "nino",
            "password1": "a-long-enough-Passw0rd",
            "password2": "a-long-enough-Passw0rd",
            "display_name": "Nino",
        },
    )
    assert response.status_code == 302
    assert Player.objects.get(user__username="nino").language == "ka"
    assert client.get(reverse("lobby"))["Content-Language"] == "ka"
