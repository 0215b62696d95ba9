"""The middle of the table: the trick being played (or the one just won, until
the next lead), the last trick below the felt, and the words said at a seat as
its card is played (Belote, Rebelote, Blot, Open Blot's declarations)."""

from __future__ import annotations

from typing import Any

from engine.cards import NO_TRUMP, Card
from engine.cards import card as card_of
from engine.observe import Observation
from games.labels import kind_label
from games.live.draw import drawing
from games.live.draw.cards import card_view, code_view
from games.live.draw.viewing import DealSeen

_ = drawing.text


def trick_on_table(obs: Observation) -> tuple[list[tuple[int, Card]], bool, int | None]:
    """The cards in the middle: the trick being played, or, until the next card is
    led (and between deals), the trick just completed, with its winner."""
    if obs.trick:
        return list(obs.trick), False, None
    if obs.phase in ("play", "over") and obs.tricks:
        last = obs.tricks[-1]
        seats = [(last.leader + i) % obs.seats for i in range(len(last.cards))]
        return [(s, card_of(c)) for s, c in zip(seats, last.cards, strict=True)], True, last.winner
    return [], False, None


def trick_context(
    seen: DealSeen,
    names: dict[int, str],
    on_table: tuple[list[tuple[int, Card]], bool, int | None],
) -> dict[str, Any]:
    """The trick in the middle (``on_table``, from :func:`trick_on_table`), each
    card placed by its seat's position for the viewer, and the last trick won."""
    trick, complete, winner = on_table
    base, n = seen.base, seen.seat_count
    return {
        "trick": [
            {
                "seat": s,
                "name": names.get(s),
                "position": (s - base) % n,
                "card": card_view(c),
                "won": complete and s == winner,
            }
            for s, c in trick
        ],
        "trick_complete": complete,
        "trick_winner": winner,
        "trick_winner_position": None if winner is None else (winner - base) % n,
        "last_trick": _last_trick(seen.obs, names, n),
    }


def _last_trick(obs: Observation, names: dict[int, str], n: int) -> list[dict[str, Any]]:
    if not obs.tricks:
        return []
    last = obs.tricks[-1]
    return [
        {
            "name": names.get((last.leader + i) % n),
            "card": code_view(c),
            "won": (last.leader + i) % n == last.winner,
        }
        for i, c in enumerate(last.cards)
    ]


def callouts(obs: Observation, trick: list[tuple[int, Card]]) -> dict[int, list[str]]:
    """Short words said at a seat as they happen: Belote/Rebelote (and Open Blot's
    Blot) while the card that made them is in the middle, Open Blot declarations
    during the first trick."""
    out: dict[int, list[str]] = {}
    in_middle = {c: s for s, c in trick}
    words = {"belote": _("Belote!"), "rebelote": _("Rebelote!")}
    # In an all-trump contract each suit has its own belote (docs/rules.md §7.3).
    belote_suits = (
        []
        if obs.trump is None or obs.trump == NO_TRUMP
        else ([obs.trump] if obs.trump < 4 else [0, 1, 2, 3])
    )
    for suit in belote_suits:
        king, queen = suit * 8 + 6, suit * 8 + 5
        for s, w in obs.announcements:
            if _played_by(obs, king) != s and _played_by(obs, queen) != s:
                continue
            for c in (king, queen):
                if in_middle.get(c) == s and words[w] not in out.get(s, []):
                    # The word goes with the card: belote on the first of the
                    # pair, rebelote on the second.
                    played_first = _played_index(obs, c) < _played_index(obs, king + queen - c)
                    if (w == "belote") == played_first:
                        out.setdefault(s, []).append(words[w])
        if obs.variant == "open_blot":
            for c in (king, queen):
                holder = in_middle.get(c)
                other = king + queen - c
                if holder is not None and _played_by(obs, other) == holder and _played_index(
                    obs, other
                ) < _played_index(obs, c):
                    out.setdefault(holder, []).append(_("Blot!"))
    if obs.variant == "open_blot" and len(obs.tricks) + bool(obs.trick) <= 1:
        for d in obs.declarations:
            out.setdefault(d.seat, []).append(kind_label(d.kind))
    return out


def _plays(obs: Observation) -> list[tuple[int, Card]]:
    return [(a.seat, a.card) for a in obs.history if a.type == "play" and a.card is not None]


def _played_index(obs: Observation, c: Card) -> int:
    for i, (_s, played) in enumerate(_plays(obs)):
        if played == c:
            return i
    return 10_000  # not played yet


def _played_by(obs: Observation, c: Card) -> int | None:
    return next((s for s, played in _plays(obs) if played == c), None)
