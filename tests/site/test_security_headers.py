"""The Content-Security-Policy header and pages that keep to it."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.site.conftest import client_for

pytestmark = pytest.mark.django_db

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
EVENT_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.IGNORECASE)


def _directives(response) -> dict[str, list[str]]:
    header = response.headers["Content-Security-Policy"]
    return {
        name: values
        for name, *values in (part.split() for part in header.split(";") if part.strip())
    }


def test_it_sends_a_policy_without_inline_scripts_or_eval(client):
    policy = _directives(client.get(reverse("lobby")))
    assert policy["script-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in policy.get("style-src", [])


def test_it_tells_htmx_not_to_inject_styles_or_eval(client):
    html = client.get(reverse("lobby")).content.decode()
    meta = re.search(r'<meta name="htmx-config" content=\'([^\']*)\'>', html)
    assert meta is not None
    assert '"includeIndicatorStyles": false' in meta.group(1)
    assert '"allowEval": false' in meta.group(1)


def test_it_serves_pages_with_no_inline_script_or_event_handler(
    client, alice, make_table
):
    table = make_table(alice, "open_blot", others=["easy"])
    match = table.matches.get()
    pages = [
        (client, reverse("lobby")),
        (client, reverse("login")),
        (client, reverse("signup")),
        (client, reverse("profile", args=["alice"])),
        (client, reverse("match", args=[match.pk])),
        (client, reverse("deal", args=[match.pk, 1])),
        (client_for(alice), reverse("table", args=[table.pk])),
        (client_for(alice), reverse("table_create")),
        (client_for(alice), reverse("profile_edit")),
    ]
    for viewer, url in pages:
        response = viewer.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert not INLINE_SCRIPT.search(html), url
        assert not EVENT_HANDLER.search(html), url
        assert "hx-on" not in html, url
        assert "Content-Security-Policy" in response.headers, url
