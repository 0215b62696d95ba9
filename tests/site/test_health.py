"""``/health/`` and ``/health/ready/``: JSON a proxy or supervisor acts on,
open without signing in, naming the failing part and nothing more, limited
per address. (The database and Redis really going away: tests/faults/
test_health_outage.py.)"""

from __future__ import annotations

import json
import random
import time
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.models import DealAnalysis
from games.runtime import beats
from games.runtime.sharedcache import shared
from games.services.matches import finish_deal
from tests.site.conftest import play_out

# transaction=True: the checks run in threads of their own, on connections of
# their own, which see only what is committed.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _fresh_cache():
    shared().clear()  # no beat or rate-limit count left by another test
    yield
    shared().clear()


@pytest.fixture(autouse=True)
def _no_worker_expected(settings) -> None:
    settings.BLOT_CONDUCTOR = "inprocess"  # the worker tests expect one themselves


def get(path: str, client: Client | None = None, **extra):
    response = (client or Client()).get(path, **extra)
    return response, json.loads(response.content)


def test_liveness_answers_ok_without_signing_in() -> None:
    response, body = get("/health/")
    assert response.status_code == 200
    assert body == {"status": "ok"}
    assert response["Content-Type"] == "application/json"


def test_readiness_is_ok_when_every_part_answers(settings) -> None:
    response, body = get("/health/ready/")
    assert response.status_code == 200, body
    assert body["status"] == "ok" and body["failing"] == []
    expected = {"database", "migrations", "analyst"}
    if settings.REDIS_URL:
        expected |= {"redis", "channel_layer"}
    assert set(body["checks"]) == expected
    assert set(body["checks"].values()) == {"ok"}


def test_readiness_names_a_missing_worker_when_one_is_expected(settings) -> None:
    settings.BLOT_CONDUCTOR = "external"
    response, body = get("/health/ready/")
    assert response.status_code == 503
    assert body["failing"] == ["worker"]
    assert body["checks"]["worker"] == "no fresh heartbeat"
    assert body["checks"]["database"] == "ok"


def test_readiness_is_ok_again_once_a_worker_beats(settings) -> None:
    settings.BLOT_CONDUCTOR = "external"
    beats.beat(beats.WORKER)
    response, body = get("/health/ready/")
    assert response.status_code == 200, body
    assert body["checks"]["worker"] == "ok"


def test_a_worker_beat_older_than_the_stale_limit_does_not_count(settings) -> None:
    settings.BLOT_CONDUCTOR = "external"
    shared().set(beats.key(beats.WORKER), time.time() - settings.BLOT_BEAT_STALE_S - 1)
    response, body = get("/health/ready/")
    assert response.status_code == 503
    assert body["failing"] == ["worker"]


@pytest.fixture
def long_queued_analysis(make_table, alice, settings):
    table = make_table(alice, "belote", others=["easy", "normal", "hard"])
    deal = play_out(table.matches.get().deals.get(), random.Random(3))
    finish_deal(deal)
    queued_at = timezone.now() - timedelta(seconds=settings.BLOT_BEAT_STALE_S + 5)
    return DealAnalysis.objects.create(deal=deal, requested_by=alice, requested_at=queued_at)


def test_readiness_names_the_analyst_when_analyses_wait_and_none_beats(
    long_queued_analysis,
) -> None:
    response, body = get("/health/ready/")
    assert response.status_code == 503
    assert body["failing"] == ["analyst"]


def test_readiness_is_ok_with_queued_analyses_while_an_analyst_beats(
    long_queued_analysis,
) -> None:
    beats.beat(beats.ANALYST)
    response, body = get("/health/ready/")
    assert response.status_code == 200, body


def test_a_freshly_queued_analysis_gives_the_analyst_time_to_start(
    long_queued_analysis,
) -> None:
    DealAnalysis.objects.filter(pk=long_queued_analysis.pk).update(requested_at=timezone.now())
    response, body = get("/health/ready/")
    assert response.status_code == 200, body


def test_readiness_says_nothing_of_settings_or_secrets(settings) -> None:
    settings.BLOT_CONDUCTOR = "external"
    response, body = get("/health/ready/")
    text = response.content.decode()
    assert set(body) == {"status", "failing", "checks"}
    for secret in (settings.SECRET_KEY, str(settings.DATABASES["default"]["NAME"])):
        assert secret not in text


def test_health_is_limited_per_address(settings) -> None:
    settings.BLOT_HEALTH_PER_MINUTE = 2
    client = Client(REMOTE_ADDR="10.1.1.1")
    assert [get("/health/", client)[0].status_code for _ in range(2)] == [200, 200]
    refused, _ = get("/health/ready/", client)
    assert refused.status_code == 429
    assert refused["Retry-After"] == "60"
    other, _ = get("/health/", Client(REMOTE_ADDR="10.1.1.2"))
    assert other.status_code == 200


def test_health_answers_only_reads() -> None:
    assert Client().post("/health/ready/").status_code == 405
