"""Fixtures for the site tests: users, tables, and deals played to the end."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Deal, RuleSetConfig, Table
from games.services import pools
from games.services import tables as table_services
from games.services.matches import deal_next, finish_deal

PASSWORD = "a-long-enough-Passw0rd"


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _polls_outlast_a_busy_machine(monkeypatch) -> None:
    """A join counts as a poll of the waiting page, and a pairing pass seats only
    people polled within ``pools.POLL_GRACE`` (3 s) or holding a socket. On a
    loaded machine more than 3 s can pass between a test's join and its pass, so
    here the grace is a minute; the tests of the grace itself age their polls by
    ``pools.POLL_GRACE``, whatever it is."""
    monkeypatch.setattr(pools, "POLL_GRACE", timedelta(minutes=1))


@pytest.fixture
def make_user(db) -> Callable[..., object]:
    def make(username: str = "alice", **extra: object):
        return get_user_model().objects.create_user(
            username=username, password=PASSWORD, **extra
        )

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    return make_user("carol")


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def alice_client(alice) -> Client:
    return client_for(alice)


@pytest.fixture
def bob_client(bob) -> Client:
    return client_for(bob)


def default_rule_set(variant: str) -> RuleSetConfig:
    return RuleSetConfig.objects.get(variant=variant, is_default=True)


@pytest.fixture
def make_table(db) -> Callable[..., Table]:
    """A table created through the service; ``others`` default to open seats."""

    def make(user, variant: str = "belote", fmt: str | None = None, others=None, **kw) -> Table:
        seats = {"belote": 4, "open_blot": 2}[variant]
        return table_services.create_table(
            user=user,
            variant=variant,
            fmt=fmt or ("first_to:1001" if variant == "belote" else "first_to:501"),
            rule_set=kw.pop("rule_set", None) or default_rule_set(variant),
            others=others if others is not None else ["open"] * (seats - 1),
            **kw,
        )

    return make


def play_out(deal: Deal, rng: random.Random) -> Deal:
    """Play random legal actions through the engine and store the action log."""
    engine_deal = deal.rebuild()
    while not engine_deal.is_over:
        engine_deal.apply(rng.choice(engine_deal.legal_actions()))
    deal.actions = [a.to_dict() for a in engine_deal.history]
    deal.save(update_fields=["actions"])
    return deal


def play_match(match, seed: int = 1, max_deals: int = 200) -> None:
    """Play every deal of ``match`` to the end with random legal actions."""
    rng = random.Random(seed)
    for _ in range(max_deals):
        deal = match.deals.filter(status=Deal.Status.PLAYING).first()
        if deal is None:
            return
        finish_deal(play_out(deal, rng))
        deal_next(match.pk)  # the conductor's job after the pause, at once here
    raise AssertionError("match did not finish")
