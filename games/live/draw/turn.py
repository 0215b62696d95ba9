"""Whose turn it is and what just happened: the turn's label and clock, the
countdown (or button) to the next deal, and the sentence the screen reader says
after each move."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from engine.cards import Card
from engine.observe import Observation
from games.labels import kind_label
from games.live.draw import auction, drawing, match_actions
from games.live.draw.cards import card_view
from games.live.draw.viewing import DealSeen, MatchState
from games.models import Table
from games.services import turnclock
from games.services.matches import result_pause

_ = drawing.text


def clock_context(table: Table, state: MatchState, seen: DealSeen) -> dict[str, Any]:
    """When the turn's clock runs out, or between deals when the next deal comes
    (``deadline_ms``), and for a person alone with bots a button to deal it now."""
    obs, seat = seen.obs, seen.seat
    open_deal, shown = state.open_deal, state.shown
    deadline_ms = None
    # A left seat runs no turn clock: the stand-in moves at bot time.
    if (
        open_deal is not None
        and obs.to_act is not None
        and obs.to_act not in state.bots | state.stand_ins
    ):
        deadline = turnclock.turn_deadline(
            table, open_deal.started_at, state.seat_rows[obs.to_act]
        )
        deadline_ms = int(deadline.timestamp() * 1000)
    next_deal = None
    if (
        seen.between_deals
        and not state.match_over
        and shown is not None
        and shown.finished_at is not None
    ):
        # The result stays until it has been read (services.matches.result_pause):
        # a countdown to the next deal, and for a person alone with bots a button.
        pause = result_pause(table, timedelta(milliseconds=1), state.playing_people)
        deadline_ms = int((shown.finished_at + pause).timestamp() * 1000)
        mine = state.seat_rows.get(seat) if seat is not None else None
        alone = (
            state.playing_people == 1
            and mine is not None
            and mine.user_id is not None
            and mine.left_at is None
        )
        next_deal = {
            "url": match_actions.reverse("match_next_deal", args=[table.pk]) if alone else None,
        }
    return {"deadline_ms": deadline_ms, "next_deal": next_deal}


def turn_context(
    state: MatchState,
    seen: DealSeen,
    on_table: tuple[list[tuple[int, Card]], bool, int | None],
) -> dict[str, Any]:
    """Whose turn it is, whether it is the viewer's, and what the screen reader
    says of the last move (``on_table``: the trick in the middle)."""
    obs, seat = seen.obs, seen.seat
    to_act_name = None if obs.to_act is None else state.names.get(obs.to_act)
    trick, complete, winner = on_table
    return {
        "to_act": obs.to_act,
        "to_act_name": to_act_name,
        "to_act_label": _to_act_label(obs, to_act_name),
        "my_turn": seen.my_turn,
        "playing_my_turn": seen.playing_my_turn,
        "say": _say(
            obs, None if seat in state.left else seat, state.names, trick, complete, winner,
            played_for_me=seat in state.timed_out,
        ),
    }


def _to_act_label(obs: Observation, name: str | None) -> str | None:
    if name is None:
        return None
    if obs.phase == "bidding":
        return _("%(name)s to bid") % {"name": name}
    return _("%(name)s to play") % {"name": name}
def _say(
    obs: Observation,
    seat: int | None,
    names: dict[int, str],
    trick: list[tuple[int, Card]],
    complete: bool,
    winner: int | None,
    played_for_me: bool = False,
) -> str:
    """One short sentence for the screen reader's polite live region: what just
    happened (the card played, the trick's winner) and whether it is your turn;
    ``played_for_me``: a stand-in plays the viewer's seat since their clock ran out."""
    parts = []
    if played_for_me:
        parts.append(_("Time ran out — a bot played for you."))
    last = obs.history[-1] if obs.history else None
    if last is not None and last.type == "play" and last.card is not None:
        view = card_view(last.card)
        parts.append(
            _("%(name)s played %(rank)s%(suit)s.")
            % {"name": names.get(last.seat, "?"), "rank": view["rank"], "suit": view["suit"]}
        )
        if complete and winner is not None:
            parts.append(_("%(name)s wins the trick.") % {"name": names.get(winner, "?")})
    elif last is not None and last.type in auction.CALL_TYPES:
        parts.append(
            _("%(name)s: %(bid)s.")
            % {"name": names.get(last.seat, "?"), "bid": auction.bid_words(last)}
        )
    elif last is not None and last.type == "declare" and obs.variant == "belote":
        # Its kind is public; its cards may not be yet (an empty list in the
        # history), so the kind comes from the observation's announcements.
        made = [d for d in obs.declarations if d.seat == last.seat]
        if made:
            parts.append(
                _("%(name)s announced %(kind)s.")
                % {"name": names.get(last.seat, "?"), "kind": kind_label(made[-1].kind)}
            )
    if seat is not None and obs.to_act == seat:
        parts.append(_("Your turn."))
    return " ".join(parts)
