"""What one viewpoint of a table is drawn from: the match's people and deals,
which every viewpoint shares, and the viewer's own observation of the deal on
the table. The parts of the table (``seats``, ``trick``, ``auction``,
``declarations``, ``score``, ``turn``, ``match_actions``) are built from these;
:mod:`games.live.draw.render` alone puts them together and draws them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from engine.actions import Action
from engine.cards import Card
from engine.observe import Observation, observe
from games.models import Deal, Match, MatchEvent, Participant, RatingChange, Seat, Table
from games.services import ratings

#: While :func:`games.live.draw.render.render_viewpoints` runs: what every
#: viewpoint of the table shares (the match, its deals, the rebuilt deal),
#: loaded once instead of once per seat.
_shared: ContextVar[dict[Any, Any] | None] = ContextVar("blot_render_shared", default=None)


@contextmanager
def sharing(shared: dict[str, Any] | None) -> Iterator[None]:
    """Viewpoints drawn inside share what they load (``shared``: what the caller
    loaded already)."""
    token = _shared.set(dict(shared or {}))
    try:
        yield
    finally:
        _shared.reset(token)


def once(key: str, load: Callable[[], Any]) -> Any:
    """``load()``, once for every viewpoint being drawn together."""
    shared = _shared.get()
    if shared is None:
        return load()
    if key not in shared:
        shared[key] = load()
    return shared[key]


def sentence(message: str, **values: Any) -> SafeString:
    """A translated sentence filled in: the translation is trusted markup, what
    fills it is escaped (as Django's ``{% blocktranslate %}`` does)."""
    return mark_safe(message % {key: conditional_escape(v) for key, v in values.items()})


def seat_rating_labels(participants: list[Any]) -> dict[int, str]:
    """Each person's rating as shown beside their seat (``1500?``), by seat, from
    participants read with their ratings (``ratings.with_ratings``)."""
    return {p.index: label for p in participants if (label := ratings.label_of(p))}


def _rating_changes(match: Match) -> list[dict[str, Any]]:
    """Each person's rating change at the end of a rated match (read once per
    match end, shared by every viewpoint)."""
    changes = RatingChange.objects.filter(match=match).select_related("user").order_by("index")
    return [
        {
            "username": c.user.get_username(),
            "delta": c.delta,
            "after": c.label_after,
            "index": c.index,
        }
        for c in changes
    ]


def side_names(variant: str, names: dict[int, str]) -> list[str]:
    """Each side's name: its two players in Belote, the player in Open Blot."""
    if variant == "belote":
        return [f"{names.get(0)} & {names.get(2)}", f"{names.get(1)} & {names.get(3)}"]
    return [names.get(0, "?"), names.get(1, "?")]


@dataclass(frozen=True)
class MatchState:
    """The match at the table as every viewpoint sees it: who sits where and how
    they play, its deals and its score rows."""

    match: Match
    seat_rows: dict[int, Seat]
    participants: list[Participant]
    names: dict[int, str]
    side_names: list[str]
    bots: set[int]
    bot_accounts: set[int]
    #: Each person's rating, moved by the match's end if it has just moved them.
    seat_ratings: dict[int, str]
    resigned: set[int]
    #: Seats whose person left the playing match (a stand-in plays them).
    left: set[int]
    #: Seats a stand-in plays though their person has not left (clock, away).
    timed_out: set[int]
    playing_people: int
    match_over: bool
    rating_changes: list[dict[str, Any]]
    finished: list[Deal]
    open_deal: Deal | None
    rows: list[Any]

    @property
    def stand_ins(self) -> set[int]:
        return self.left | self.timed_out

    @property
    def shown(self) -> Deal | None:
        """The deal on the table: the one being played, else the last finished."""
        return self.open_deal or (self.finished[-1] if self.finished else None)


def match_state(table: Table, match: Match, seat_rows: dict[int, Seat]) -> MatchState:
    """The match's people, deals and score rows, loaded once for every viewpoint."""
    participants = once(
        "participants",
        lambda: list(ratings.with_ratings(match.participants.all(), match.game)),
    )
    playing = match.status == Match.Status.PLAYING
    match_over = match.status == Match.Status.FINISHED
    # Who resigned: read only when someone may have (a resigned seat stays a
    # left one, to the match's end and after), so an ordinary move's frame costs
    # no query.
    maybe_resigned = any(row.left_at for row in seat_rows.values())
    resigned: set[int] = (
        once("resigned", lambda: set(
            match.events.filter(kind=MatchEvent.Kind.RESIGNED).values_list("index", flat=True)
        ))
        if maybe_resigned
        else set()
    )
    names = {p.index: p.shown_name for p in participants}  # bots named in the reader's language
    # Each person's rating beside their name: read with the participants, once for
    # every viewpoint (and once per deal per process: games.live.store.history).
    seat_ratings: dict[int, str] = once("seat_ratings", lambda: seat_rating_labels(participants))
    changes = (
        once("rating_changes", lambda: _rating_changes(match))
        if match_over and match.rated
        else []
    )
    if changes:  # the ratings this match's end has just moved
        seat_ratings = {**seat_ratings, **{c["index"]: c["after"] for c in changes}}
    # Finished deals' action logs are never drawn: only the shown deal's log is
    # read (one deferred load), so a frame costs the same at deal 1 and deal 40.
    deals = once("deals", lambda: list(match.deals.order_by("number").defer("actions")))
    return MatchState(
        match=match,
        seat_rows=seat_rows,
        participants=participants,
        names=names,
        side_names=side_names(table.variant, names),
        bots={p.index for p in participants if p.bot_level},
        bot_accounts={p.index for p in participants if p.bot_account},
        seat_ratings=seat_ratings,
        resigned=resigned,
        left={index for index, row in seat_rows.items() if row.left_at is not None and playing},
        timed_out={
            index
            for index, row in seat_rows.items()
            if row.stand_in_since is not None and row.left_at is None and playing
        },
        playing_people=sum(
            1 for row in seat_rows.values() if row.user_id is not None and row.left_at is None
        ),
        match_over=match_over,
        rating_changes=changes,
        finished=[d for d in deals if d.status == Deal.Status.FINISHED],
        open_deal=next((d for d in reversed(deals) if d.status == Deal.Status.PLAYING), None),
        rows=once("rows", lambda: list(match.score_rows.order_by("number"))),
    )


@dataclass(frozen=True)
class DealSeen:
    """The deal on the table as one viewer sees it: their observation and the
    moves they may make."""

    obs: Observation
    #: The viewer's seat (None: a spectator).
    seat: int | None
    #: The seat drawn at the bottom: the viewer's, a spectator's is seat 0.
    base: int
    seat_count: int
    version: int
    #: A person who left is offered no moves (the stand-in plays their seat).
    legal: Sequence[Action]
    legal_cards: set[Card | None]
    #: Between deals (and at match end) the finished deal stays on the table: its
    #: last trick and its result, until the next deal is dealt.
    between_deals: bool
    my_turn: bool
    playing_my_turn: bool


def deal_seen(table: Table, state: MatchState, seat: int | None) -> DealSeen:
    """The shown deal (there must be one) observed from ``seat``."""
    deal = state.shown
    assert deal is not None
    obs = observe(once("engine", deal.rebuild), seat)
    legal = [] if seat in state.left else obs.legal
    my_turn = seat is not None and obs.to_act == seat and seat not in state.left
    return DealSeen(
        obs=obs,
        seat=seat,
        base=seat if seat is not None else 0,
        seat_count=table.seat_count,
        version=table.version,
        legal=legal,
        legal_cards={a.card for a in legal if a.type == "play"},
        between_deals=state.open_deal is None,
        my_turn=my_turn,
        playing_my_turn=my_turn and obs.phase == "play",
    )
