"""Fixtures for tournament tests: the site's users and the live tables' quick timings."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.models import Tournament
from games.services import tournaments as tournament_services
from tests.live.conftest import _quick_tables  # noqa: F401 - fixtures
from tests.site.conftest import (  # noqa: F401 - fixtures shared with the site tests
    _fast_password_hashing,
    alice,
    alice_client,
    bob,
    bob_client,
    carol,
    default_rule_set,
    make_table,
    make_user,
)


@pytest.fixture
def make_tournament(db) -> Callable[..., Tournament]:
    """A tournament created through the service, open for registration: best of
    one, Easy bots with no pause, so a whole one plays in seconds."""

    def make(user, variant: str = "open_blot", kind: str = "knockout", **kw) -> Tournament:
        kw.setdefault("max_entrants", 4)
        kw.setdefault("fill_with_bots", "easy")
        kw.setdefault("bot_delay_ms", 0)
        return tournament_services.create_tournament(
            user=user,
            name=kw.pop("name", "Cup"),
            variant=variant,
            kind=kind,
            fmt=kw.pop("fmt", "best_of:1"),
            rule_set=kw.pop("rule_set", None) or default_rule_set(variant),
            **kw,
        )

    return make
