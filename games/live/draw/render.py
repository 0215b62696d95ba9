"""Drawing one viewer's table from the engine observation — the one place that
renders a seat's view, for the first page load and for every live update alike.

Everything shown comes from ``engine.observe`` for the viewer's seat (or the
spectator view), the table's seats and the stored score table: nothing here can
reach another seat's hidden cards. Each part of the table is built by its own
module (``seats``, ``trick``, ``auction``, ``declarations``, ``score``, ``turn``,
``match_actions``) from what :mod:`games.live.draw.viewing` loads; here they are
put together and drawn.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.utils.functional import Promise
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy, ngettext, pgettext

from games.labels import format_label
from games.live.draw import (
    auction,
    declarations,
    drawing,
    match_actions,
    score,
    seats,
    trick,
    turn,
    viewing,
)
from games.live.draw.viewing import once
from games.models import Match, Table

SPECTATORS_CANNOT_PLAY = gettext_lazy("Spectators cannot play.")
MOVE_FAILED = gettext_lazy(
    "The server could not take that move; the table is unchanged. Try again."
)


def _draw(template: str, context: dict[str, Any]) -> SafeString:
    """One of the live table's templates drawn (:mod:`games.live.draw.drawing`)."""
    return drawing.draw(template, context)


def _fragment(template: str, context: dict[str, Any]) -> SafeString:
    """A part of the table drawn from ``context`` alone (plain data, no models):
    a part whose context is the same for several viewpoints (the score table, a
    seat seen by its neighbours), or the same as at the move before, is drawn
    once (:class:`games.live.draw.drawing.Parts`)."""
    return drawing.parts.draw(template, context)


def render_viewpoints(
    table: Table, seats: list[int | None], shared: dict[str, Any] | None = None
) -> dict[int | None, str]:
    """The table drawn for each of ``seats`` (None: spectators), loading what
    they share once (``shared``: what the caller loaded already). Each viewpoint
    still gets only its own observation."""
    with viewing.sharing(shared), drawing.one_language():
        return {seat: render_table(table, seat, oob=True) for seat in seats}


def table_context(table: Table, seat: int | None) -> dict[str, Any]:
    """Everything the table template needs for ``seat`` (None: a spectator)."""
    match = once("match", lambda: table.matches.order_by("-id").first())
    context = _table_context_basics(table, seat, match)
    # Every seat's row, shared by all viewpoints: who may leave or return, and
    # whose seat a stand-in plays because they left.
    seat_rows = once("seats", lambda: {row.index: row for row in table.seats.order_by("index")})
    if match is None:
        context["match_actions"] = match_actions.view(table, match, seat, seats=seat_rows)
        return context
    state = viewing.match_state(table, match, seat_rows)
    context.update(match_actions.match_actions_context(table, seat, state))
    context.update(seats.players_context(state))
    context.update(score.match_score_context(table, seat, state))
    if state.shown is None:
        return context
    seen = viewing.deal_seen(table, state, seat)
    on_table = trick.trick_on_table(seen.obs)
    clock = turn.clock_context(table, state, seen)
    announced = declarations.announced_views(seen, state.names)
    seat_views = seats.seat_views(
        state,
        seen,
        deadline_ms=clock["deadline_ms"],
        callouts=trick.callouts(seen.obs, on_table[0]),
        announced=announced,
    )
    hand = seats.hand_view(seen)
    _draw_seat_places(seat_views, hand, seen.playing_my_turn)
    context.update(
        deal=state.shown,
        obs=seen.obs,
        between_deals=seen.between_deals,
        seats=seat_views,
        me=next((v for v in seat_views if v["is_me"]), None),
        bottom=seat_views[0],
        others=seat_views[1:],
        hand=hand,
        **auction.bidding_context(seen, state.names),
        **declarations.declarations_context(seen, state.names, announced),
        **trick.trick_context(seen, state.names, on_table),
        **score.deal_score_context(seen.obs, state.side_names),
        **clock,
        **turn.turn_context(state, seen, on_table),
    )
    return context


def _table_context_basics(table: Table, seat: int | None, match: Match | None) -> dict[str, Any]:
    """The table itself: its variant, format, version, the viewer's seat and the
    spectator count."""
    return {
        "table": table,
        "variant": table.variant,
        "seat": seat,
        "match": match,
        "version": table.version,
        "format": once("format", lambda: format_label(table.format)),
        # Django's get_FOO_display rebuilds its choices' lookup at every call.
        "variant_label": once("variant_label", table.get_variant_display),
        "status_label": once("status_label", table.get_status_display),
        "trick_pause_ms": table.trick_pause_ms,
        "rated": table.rated,
        "watchers": _fragment("live/_watchers.html", _watchers(_watching(table, seat), oob=False)),
    }


def _draw_seat_places(
    seat_views: list[dict[str, Any]], hand: list[dict[str, Any]], playing_my_turn: bool
) -> None:
    """Each seat's place drawn into its view (``html``), the viewer's with their hand."""
    dealer_mark = once("dealer_mark", lambda: pgettext("dealer mark", "D"))
    for view in seat_views:
        # Where a seat sits differs per viewer; what is drawn there does not
        # (but for the viewer's own hand), so neighbours share one drawing.
        body: dict[str, Any] = {
            "s": {k: v for k, v in view.items() if k != "position"},
            "dealer_mark": dealer_mark,
        }
        if view["is_me"]:
            body.update(hand=hand, playing_my_turn=playing_my_turn)
        # The place itself is one element, drawn here rather than by an include
        # per seat per viewpoint (numbers and fixed words around a drawn body:
        # nothing to escape).
        view["html"] = mark_safe(
            f'<div class="seat-place pos-{int(view["position"])}'
            f'{" turn" if view["is_turn"] else ""}{" mine" if view["is_me"] else ""}" '
            f'data-seat-place="{int(view["index"])}"'
            f'{" data-stand-in" if view["stand_in"] else ""}>\n'
            f'{_fragment("live/_seat_body.html", body)}</div>\n'
        )


#: What the part below the felt shows: the same for every viewpoint.
MORE_KEYS = (
    "history_bids", "tricks_won", "side_names", "card_points", "deal_score", "announcements",
    "declarations", "last_trick", "between_deals", "last_result", "match_over", "variant",
    "auction_log",
)


def _more(context: dict[str, Any]) -> SafeString:
    """The part below the felt (this deal's points, the last trick, the previous
    deal, the score table), drawn from plain data so viewpoints share it."""
    obs = context.get("obs")
    part = {key: context.get(key) for key in MORE_KEYS}
    part.update(
        shown=obs is not None,
        phase=None if obs is None else obs.phase,
        rows=[
            {
                "number": r.number,
                "trump": r.trump,
                "deal_points": list(r.deal_points),
                "totals": list(r.totals),
                "markers": list(r.markers),
                "contract": (context.get("row_notes") or {}).get(r.number, ("", ""))[0],
                "announced": (context.get("row_notes") or {}).get(r.number, ("", ""))[1],
            }
            for r in context.get("rows") or []
        ],
    )
    return _fragment("live/_more.html", part)


def render_table(table: Table, seat: int | None, *, oob: bool = False) -> str:
    """The viewer's table root (``oob``: marked for an out-of-band swap by id)."""
    context = table_context(table, seat)
    return _draw("live/table.html", {**context, "more": _more(context), "oob": oob})


def _watching(table: Table, seat: int | None) -> int:
    """The spectator count a viewpoint shows. A spectator is one of them even
    before the presence writer has counted their connection (within a second)."""
    return table.spectator_count if seat is not None else max(table.spectator_count, 1)


def _watchers(count: int, *, oob: bool) -> dict[str, Any]:
    label = ngettext("%(n)s watching", "%(n)s watching", count) % {"n": count}
    return {"label": label, "oob": oob}


def watchers_fragment(count: int) -> SafeString:
    """The spectator count alone, for an out-of-band swap by its id."""
    return _draw("live/_watchers.html", _watchers(count, oob=True))


def live_socket_url(table: Table, token: str | None) -> str:
    url = f"/ws/table/{table.pk}/"
    return f"{url}?{urlencode({'invite': token})}" if token else url


def error_fragment(message: str | Promise) -> str:
    return _draw("live/error.html", {"message": message})
