"""The seats around the table as one viewer sees them: who sits where, whose
turn and clock it is, the hidden hands' backs, Open Blot's stacks, what was said
at each seat, and the viewer's own hand."""

from __future__ import annotations

from typing import Any

from django.utils.translation import ngettext

from games.live.draw.cards import card_view, playable_at, sorted_hand
from games.live.draw.viewing import DealSeen, MatchState, sentence


def players_context(state: MatchState) -> dict[str, Any]:
    """Who plays the match: each seat's and each side's name, and who resigned."""
    return {
        "resigned_names": ", ".join(state.names.get(i, "?") for i in sorted(state.resigned)),
        "names": state.names,
        "side_names": state.side_names,
    }


def seat_views(
    state: MatchState,
    seen: DealSeen,
    *,
    deadline_ms: int | None,
    callouts: dict[int, list[str]],
    announced: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    """Every seat as the viewer sees it, the viewer's own (or seat 0) first and
    the others round the table from there."""
    obs, seat = seen.obs, seen.seat
    n = seen.seat_count
    # Announcements stay at their seat through the first two tricks (the cards of
    # the side whose announcements count are shown there after the first).
    announced_at_seats = len(obs.tricks) <= 1 and obs.phase == "play"
    seats = []
    for s in range(n):
        view: dict[str, Any] = {
            "index": s,
            "name": state.names.get(s, "?"),
            "rating": state.seat_ratings.get(s),
            "position": (s - seen.base) % n,
            "is_me": s == seat,
            "is_turn": s == obs.to_act,
            "is_dealer": s == obs.dealer,
            "is_taker": s == obs.taker,
            "hand_size": obs.hand_sizes[s],
            "is_bot": s in state.bots,
            "bot_account": s in state.bot_accounts,
            "stand_in": s in state.stand_ins,
            "timed_out": s in state.timed_out,
            "resigned": s in state.resigned,
            "backs": range(obs.hand_sizes[s]),
            "backs_label": sentence(
                ngettext("%(n)s card", "%(n)s cards", obs.hand_sizes[s]), n=obs.hand_sizes[s]
            ),
            "clock": deadline_ms is not None and s == obs.to_act,
            "callouts": callouts.get(s, []),
            "announced": [a for a in announced if a["seat"] == s] if announced_at_seats else [],
            "tricks_won": obs.tricks_won[s % 2],
        }
        if obs.stacks:
            view["stacks"] = _stack_views(seen, s)
        seats.append(view)
    seats.sort(key=lambda v: v["position"])
    return seats


def _stack_views(seen: DealSeen, s: int) -> list[dict[str, Any]]:
    """Open Blot: seat ``s``'s stacks, the viewer's own playable tops as buttons."""
    obs, seat = seen.obs, seen.seat
    return [
        {
            "top": None
            if top is None
            else card_view(top, playable_at(s == seat and top in seen.legal_cards, seen.version)),
            "face_down": down,
            # Own stacks that cannot be played now are dimmed, like a hand.
            "dim": s == seat and obs.to_act == seat and obs.phase == "play"
            and top not in seen.legal_cards,
        }
        for top, down in obs.stacks[s]
    ]


def hand_view(seen: DealSeen) -> list[dict[str, Any]]:
    """The viewer's hand in the table's order, the cards they may play as buttons."""
    return [
        card_view(c, playable_at(c in seen.legal_cards, seen.version))
        for c in sorted_hand(seen.obs.hand, seen.obs.trump)
    ]
