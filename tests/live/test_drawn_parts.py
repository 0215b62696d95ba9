"""The table's parts kept across moves (``drawing.parts``): a move redraws only
the parts it changed, and what is kept draws exactly what a fresh drawing would."""

from __future__ import annotations

import pytest

from games.live.draw import drawing, frames
from games.live.submit.play import current
from games.models import Table
from tests.live.conftest import play_as_holder

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(make_table, alice, bob, carol, make_user) -> Table:
    """A Belote table of four people, its first deal in the auction."""
    from games.services.tables import join_seat

    table = make_table(alice, "belote")
    for index, user in enumerate([bob, carol, make_user("dave")], start=1):
        join_seat(table.pk, user, index)
    table.refresh_from_db()
    return table


def drawn_by(monkeypatch, table_id: int) -> tuple[list[str], frames.Frames]:
    """Every frame of the table, and the templates drawn for them."""
    drawn: list[str] = []
    real = drawing.draw

    def counting(name, context):
        drawn.append(name)
        return real(name, context)

    monkeypatch.setattr(drawing, "draw", counting)
    _version, by_viewpoint = frames.render_all(table_id)
    monkeypatch.setattr(drawing, "draw", real)
    return drawn, by_viewpoint


def test_what_viewpoints_share_is_drawn_once_per_move(four, monkeypatch) -> None:
    """A seat seen by its three neighbours is drawn once, not three times, and
    the part below the felt once for all four players."""
    drawn, by_viewpoint = drawn_by(monkeypatch, four.pk)
    assert len(by_viewpoint) == 4
    # Each player's own seat (their hand) and each seat as the others see it.
    assert drawn.count("live/_seat_body.html") == 8
    assert drawn.count("live/_more.html") == 1
    assert drawn.count("live/table.html") == 4


def test_a_move_redraws_only_the_seats_it_changed(four, monkeypatch) -> None:
    live = current(four)
    drawn_by(monkeypatch, four.pk)
    play_as_holder(four.pk, live.engine.legal_actions()[0], four.version)  # the first bid
    after, kept = drawn_by(monkeypatch, four.pk)
    # The bidder's seat (what they said) and the next bidder's (whose turn it is),
    # each as its holder and as the others see it; the two other seats are as
    # they were.
    assert after.count("live/_seat_body.html") == 4
    drawing.parts.clear()
    again, fresh = drawn_by(monkeypatch, four.pk)
    assert again.count("live/_seat_body.html") == 8
    assert kept == fresh


def test_a_kept_part_is_drawn_again_in_another_language(four, monkeypatch) -> None:
    for lang in ("en", "fr"):
        frames.note_language(four.pk, lang)
    frames.render_all(four.pk)  # English and French: their parts are kept
    frames.note_language(four.pk, "ka")
    _drawn, by_viewpoint = drawn_by(monkeypatch, four.pk)
    assert "(vous)" in by_viewpoint[(0, "fr")]
    assert "(you)" in by_viewpoint[(0, "en")]
    assert "(თქვენ)" in by_viewpoint[(0, "ka")]


class Nameless:
    """A value whose ``repr`` names it by its address, not by what it holds."""

    def __init__(self, text: str) -> None:
        self.text = text


def test_a_part_known_only_by_an_address_is_not_kept(monkeypatch) -> None:
    drawn: list[str] = []
    monkeypatch.setattr(drawing, "draw", lambda name, context: drawn.append(name) or "x")
    for _ in range(2):
        drawing.parts.draw("live/_watchers.html", {"label": Nameless("3 watching")})
        drawing.parts.draw("live/_watchers.html", {"label": "3 watching"})
    assert drawn == ["live/_watchers.html"] * 3  # the plain one drawn once, then kept


def test_the_drawing_bench_draws_a_whole_deal_and_leaves_nothing_behind(capsys) -> None:
    import json

    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    call_command("bench_drawing", reps=1)
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    # At least the auction (all eight passes: the last closes a deal thrown in).
    assert report["viewpoints"] == 4 and report["moves"] >= 7
    assert report["fastest_ms_per_move"] > 0
    assert not Table.objects.exists()
    assert not get_user_model().objects.filter(username__startswith="bench-drawing-").exists()
