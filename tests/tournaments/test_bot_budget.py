"""One bot-work budget per person across their tables and tournaments, and a
daily limit on tournaments (without them anyone could start a tournament
of 128 Hard bots, and a second one, and starve every other player's bots)."""

from __future__ import annotations

from collections import Counter

import pytest
from django.urls import reverse

from games.models import Table, Tournament
from games.services import ServiceError
from games.services.botwork import bot_work_in_use
from tests.site.conftest import client_for
from tests.site.test_limit_races import at_once
from tests.tournaments.test_pages import form


@pytest.fixture
def budget(settings) -> int:
    settings.BLOT_BOT_WORK_PER_USER = 12
    return 12


@pytest.mark.django_db
def test_a_tournament_of_bots_beyond_the_budget_is_refused_with_the_reason(
    budget, alice_client
) -> None:
    response = alice_client.post(
        reverse("tournament_create"), form(max_entrants="128", fill_with_bots="hard")
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "this tournament could need 64 tables of bots at once" in page
    assert "12 of 12" in page
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_staff_may_create_a_larger_one(budget, make_user) -> None:
    staff = client_for(make_user("dana", is_staff=True))
    response = staff.post(
        reverse("tournament_create"), form(max_entrants="128", fill_with_bots="hard")
    )
    assert response.status_code == 302
    assert Tournament.objects.get().max_entrants == 128


@pytest.mark.django_db
def test_tables_and_tournaments_draw_on_one_budget(budget, alice, make_table, make_tournament):
    for _ in range(2):
        make_table(alice, "open_blot", others=["hard"])
    with pytest.raises(ServiceError):
        make_tournament(alice, max_entrants=24, fill_with_bots="hard")  # 12 > 10 left
    make_tournament(alice, max_entrants=20, fill_with_bots="hard")  # 10: all that is left
    assert bot_work_in_use(alice) == 12
    with pytest.raises(ServiceError, match="across your tables and tournaments"):
        make_table(alice, "open_blot", others=["easy"])
    # A tournament without bots, or a table without bots, costs nothing.
    make_tournament(alice, max_entrants=64, fill_with_bots="")
    make_table(alice, "open_blot", others=["open"])


@pytest.mark.django_db
def test_a_finished_tournament_gives_its_room_back(budget, alice, make_tournament) -> None:
    first = make_tournament(alice, max_entrants=24, fill_with_bots="easy")
    with pytest.raises(ServiceError):
        make_tournament(alice, max_entrants=4, fill_with_bots="easy")
    Tournament.objects.filter(pk=first.pk).update(status=Tournament.Status.FINISHED)
    make_tournament(alice, max_entrants=4, fill_with_bots="easy")


@pytest.mark.django_db
def test_a_person_creates_at_most_the_daily_number_of_tournaments(
    settings, alice, make_tournament, make_user
) -> None:
    settings.BLOT_TOURNAMENTS_PER_USER_DAILY = 3
    for _ in range(3):
        make_tournament(alice, fill_with_bots="")
    with pytest.raises(ServiceError, match="You have created 3 tournaments today"):
        make_tournament(alice, fill_with_bots="")
    staff = make_user("dana", is_staff=True)
    for _ in range(4):
        make_tournament(staff, fill_with_bots="")


@pytest.mark.django_db(transaction=True)
def test_creations_at_once_keep_the_daily_limit_and_the_budget(
    settings, alice, make_tournament
) -> None:
    settings.BLOT_TOURNAMENTS_PER_USER_DAILY = 5
    settings.BLOT_BOT_WORK_PER_USER = 1000

    def create(n: int, **kw) -> int:
        try:
            make_tournament(alice, name=f"Cup {n}", **kw)
        except ServiceError:
            return 0
        return 1

    assert at_once(20, lambda n: create(n, fill_with_bots="")) == Counter({1: 5, 0: 15})
    Tournament.objects.all().delete()

    settings.BLOT_TOURNAMENTS_PER_USER_DAILY = 1000
    settings.BLOT_BOT_WORK_PER_USER = 12
    made = at_once(10, lambda n: create(n, max_entrants=8, fill_with_bots="hard"))
    assert made == Counter({1: 3, 0: 7})  # 4 tables of bots each: three fit in 12
    assert bot_work_in_use(alice) == 12
    assert not Table.objects.exists()
