"""Drawing one viewer's table from the engine observation — the one place that
renders a seat's view, for the first page load and for every live update alike.

Everything shown comes from ``engine.observe`` for the viewer's seat (or the
spectator view), the table's seats and the stored score table: nothing here can
reach another seat's hidden cards.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

from django.template.loader import render_to_string
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.cards import (
    CODES,
    NO_TRUMP,
    PLAIN_STRENGTH,
    STRENGTH,
    SUITS,
    TRUMP_CODES,
    Card,
    mask_of,
)
from engine.declarations import Declaration
from engine.observe import Observation, observe
from games.live import match_actions
from games.models import Deal, Match, Table
from games.templatetags.blot import SUIT_SYMBOLS, kind_label, trump_label

SPECTATORS_CANNOT_PLAY = gettext_lazy("Spectators cannot play.")
MOVE_FAILED = gettext_lazy(
    "The server could not take that move; the table is unchanged. Try again."
)

RANK_LABELS = ("7", "8", "9", "10", "J", "Q", "K", "A")
#: Hand order: alternate colours (♠ ♥ ♣ ♦), strongest first within a suit.
HAND_SUIT_ORDER = (3, 2, 0, 1)


def card_view(card: Card, play_version: int | None = None) -> dict[str, Any]:
    """A card to draw; with ``play_version`` it is drawn as a button that plays it."""
    suit = card >> 3
    view: dict[str, Any] = {
        "code": CODES[card],
        "rank": RANK_LABELS[card & 7],
        "suit": SUIT_SYMBOLS[SUITS[suit]],
        "red": suit in (1, 2),
        "playable": play_version is not None,
    }
    if play_version is not None:
        view["vals"] = _vals({"type": "play", "card": CODES[card], "version": play_version})
    return view


def code_view(code: str) -> dict[str, Any]:
    from engine.cards import card

    return card_view(card(code))


def _hand_key(trump: int | None):
    def key(c: Card) -> tuple[int, int]:
        strength = STRENGTH[trump][c] if trump is not None else PLAIN_STRENGTH[c & 7]
        return HAND_SUIT_ORDER.index(c >> 3), -strength

    return key


def _if(condition: bool, version: int) -> int | None:
    return version if condition else None


def _vals(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"))


def _bid_label(action: Any) -> str:
    if action.type == "pass":
        return _("Pass")
    if action.type == "take":
        return _("Take")
    if action.trump == NO_TRUMP:
        return _("No trump")
    return _("Choose %(suit)s") % {"suit": trump_label(TRUMP_CODES[action.trump])}


def table_context(table: Table, seat: int | None) -> dict[str, Any]:
    """Everything the table template needs for ``seat`` (None: a spectator)."""
    match = table.matches.order_by("-id").first()
    context: dict[str, Any] = {
        "table": table,
        "variant": table.variant,
        "seat": seat,
        "match": match,
        "version": table.version,
    }
    context["match_actions"] = match_actions.view(table, match, seat)
    if match is None:
        return context
    participants = list(match.participants.all())
    names = {p.index: p.name for p in participants}
    bots = {p.index for p in participants if p.bot_level}
    deals = list(match.deals.order_by("number"))
    open_deal = next((d for d in reversed(deals) if d.status == Deal.Status.PLAYING), None)
    finished = [d for d in deals if d.status == Deal.Status.FINISHED]
    shown = open_deal or (finished[-1] if finished else None)
    n = table.seat_count
    base = seat if seat is not None else 0
    context.update(
        names=names,
        side_names=_side_names(table.variant, names),
        rows=list(match.score_rows.order_by("number")),
        match_over=match.status == Match.Status.FINISHED,
        winner_name=None
        if match.winner is None
        else _side_names(table.variant, names)[match.winner],
        last_result=_result_view(finished[-1], names) if finished else None,
    )
    if shown is None:
        return context
    obs = observe(shown.rebuild(), seat)
    legal_cards = {a.card for a in obs.legal if a.type == "play"}
    version = table.version
    deadline_ms = None
    if open_deal is not None and obs.to_act is not None and obs.to_act not in bots:
        start = table.turn_started_at or open_deal.started_at
        deadline_ms = int((start + timedelta(seconds=table.turn_seconds)).timestamp() * 1000)
    seats = []
    for s in range(n):
        position = (s - base) % n
        view: dict[str, Any] = {
            "index": s,
            "name": names.get(s, "?"),
            "position": position,
            "is_me": s == seat,
            "is_turn": s == obs.to_act,
            "is_dealer": s == obs.dealer,
            "is_taker": s == obs.taker,
            "hand_size": obs.hand_sizes[s],
            "is_bot": s in bots,
            "backs": range(obs.hand_sizes[s]),
        }
        if obs.stacks:
            view["stacks"] = [
                {
                    "top": None
                    if top is None
                    else card_view(top, _if(s == seat and top in legal_cards, version)),
                    "face_down": down,
                }
                for top, down in obs.stacks[s]
            ]
        seats.append(view)
    seats.sort(key=lambda v: v["position"])
    context.update(
        deal=shown,
        obs=obs,
        to_act=obs.to_act,
        to_act_name=None if obs.to_act is None else names.get(obs.to_act),
        my_turn=seat is not None and obs.to_act == seat,
        playing_my_turn=seat is not None and obs.to_act == seat and obs.phase == "play",
        seats=seats,
        me=next((v for v in seats if v["is_me"]), None),
        others=[v for v in seats if not v["is_me"]],
        hand=[
            card_view(c, _if(c in legal_cards, version))
            for c in sorted(obs.hand, key=_hand_key(obs.trump))
        ],
        proposed=None if obs.proposed is None else card_view(obs.proposed),
        trump=None if obs.trump is None else trump_label(TRUMP_CODES[obs.trump]),
        trump_red=obs.trump in (1, 2),
        trick=[
            {"seat": s, "name": names.get(s), "position": (s - base) % n, "card": card_view(c)}
            for s, c in obs.trick
        ],
        last_trick=_last_trick(obs, names, base, n),
        bids=[
            {
                "label": _bid_label(a),
                "action": a.type,
                "trump": a.to_dict().get("trump", ""),
                "vals": _vals({**a.to_dict(), "version": version}),
            }
            for a in obs.legal
            if a.type in ("pass", "take", "choose")
        ],
        announce=[
            {
                "label": _declaration_label(a),
                "cards": [code_view(c) for c in a.to_dict()["cards"]],
                "vals": _vals(
                    {"type": "declare", "cards": " ".join(a.to_dict()["cards"]), "version": version}
                ),
            }
            for a in obs.legal
            if a.type == "declare"
        ],
        declarations=[
            {
                "name": names.get(d.seat),
                "kind": d.kind,
                "points": d.points,
                "cards": [card_view(c) for c in d.cards],
            }
            for d in obs.declarations
        ],
        announcements=[
            {"name": names.get(s), "word": _("Belote") if w == "belote" else _("Rebelote")}
            for s, w in obs.announcements
        ],
        card_points=obs.card_points,
        tricks_won=obs.tricks_won,
        deadline_ms=deadline_ms,
        history_bids=_bids_so_far(obs, names),
    )
    return context


def _declaration_label(action: Any) -> str:
    return kind_label(Declaration(action.seat, mask_of(action.cards), 0).kind)


def _last_trick(obs: Observation, names: dict[int, str], base: int, n: int) -> list[dict[str, Any]]:
    if not obs.tricks:
        return []
    last = obs.tricks[-1]
    return [
        {
            "name": names.get((last.leader + i) % n),
            "position": ((last.leader + i) % n - base) % n,
            "card": code_view(c),
            "won": (last.leader + i) % n == last.winner,
        }
        for i, c in enumerate(last.cards)
    ]


def _bids_so_far(obs: Observation, names: dict[int, str]) -> list[str]:
    out = []
    for a in obs.history:
        if a.type in ("pass", "take", "choose"):
            out.append(f"{names.get(a.seat)}: {_bid_label(a)}")
    return out


def _side_names(variant: str, names: dict[int, str]) -> list[str]:
    if variant == "belote":
        return [f"{names.get(0)} & {names.get(2)}", f"{names.get(1)} & {names.get(3)}"]
    return [names.get(0, "?"), names.get(1, "?")]


def _result_view(deal: Deal, names: dict[int, str]) -> dict[str, Any] | None:
    result = deal.result
    if not result:
        return None
    outcome_labels = {"made": _("made"), "inside": _("inside"), "litige": _("litige")}
    return {
        "number": deal.number,
        "void": result["void"],
        "trump": trump_label(result.get("trump")),
        "taker": names.get(result["taker"]) if result.get("taker") is not None else None,
        "outcome": outcome_labels.get(result.get("outcome") or "", ""),
        "card_points": result.get("card_points"),
        "deal_points": result.get("deal_points"),
        "capot": result.get("capot"),
        "belote": result.get("belote"),
        "held_points": result.get("held_points"),
        "declarations": [
            {
                "name": names.get(d["seat"]),
                "kind": d["kind"],
                "points": d["points"],
                "counted": d["counted"],
                "cards": [code_view(c) for c in d["cards"]],
            }
            for d in result.get("declarations") or []
        ],
    }


def render_table(table: Table, seat: int | None, *, oob: bool = False) -> str:
    """The viewer's table root (``oob``: marked for an out-of-band swap by id)."""
    return render_to_string("live/table.html", {**table_context(table, seat), "oob": oob})


def table_fragment(table_id: int, seat: int | None) -> str:
    """What the WebSocket sends a viewer after every change."""
    return render_table(Table.objects.get(pk=table_id), seat, oob=True)


def live_socket_url(table: Table, token: str | None) -> str:
    url = f"/ws/table/{table.pk}/"
    return f"{url}?{urlencode({'invite': token})}" if token else url


def error_fragment(message: str | Promise) -> str:
    return render_to_string("live/error.html", {"message": message})
