"""Analysis requests that arrive at once: a deal gets one analysis
however many ask for it together, and a person's pending requests stop exactly
at the limit. Each request is read, checked and written in one transaction that
first locks the person and the deals; without the locks, two requests for one
deal both created a row (the second failed on the unique key, a 500) and a
person's requests at once all passed the count."""

from __future__ import annotations

import random
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connections

from games.models import DealAnalysis
from games.services import ServiceError
from games.services.analysis import MAX_PENDING, request_analysis
from games.services.matches import finish_deal
from tests.site.conftest import play_out

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_analyst_process(settings):
    settings.BLOT_ANALYST = "off"


def finished_deal(make_table, owner, seed: int):
    match = make_table(owner, "belote", fmt="best_of:3", others=["easy"] * 3).matches.get()
    deal = play_out(match.deals.get(), random.Random(seed))
    finish_deal(deal)
    deal.refresh_from_db()
    return deal


def at_once(count: int, work: Callable[[int], object]) -> Counter[str]:
    """Run ``work(n)`` for n in range(count) from threads released together;
    how they ended, counted by outcome: "ok", "refused" or the error's name."""
    barrier = threading.Barrier(count)

    def one(n: int) -> str:
        try:
            barrier.wait(timeout=30)
            work(n)
            return "ok"
        except ServiceError:
            return "refused"
        except Exception as exc:
            return type(exc).__name__
        finally:
            connections.close_all()

    with ThreadPoolExecutor(count) as pool:
        return Counter(pool.map(one, range(count)))


def test_ten_people_asking_for_one_deal_at_once_queue_one_analysis(make_table, make_user, alice):
    deal = finished_deal(make_table, alice, seed=3)
    people = [make_user(f"asker{n}") for n in range(10)]
    outcomes = at_once(10, lambda n: request_analysis(people[n], deal))
    assert outcomes == Counter(ok=10)
    assert DealAnalysis.objects.filter(deal=deal).count() == 1


def test_one_person_asking_for_many_deals_at_once_stops_at_the_limit(make_table, alice):
    deals = [finished_deal(make_table, alice, seed=n) for n in range(MAX_PENDING + 4)]
    outcomes = at_once(len(deals), lambda n: request_analysis(alice, deals[n]))
    assert outcomes == Counter(ok=MAX_PENDING, refused=4)
    assert DealAnalysis.objects.filter(requested_by=alice).count() == MAX_PENDING
