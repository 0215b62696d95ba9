"""The bidding as the live table draws it: Belote's and Open Blot's classic
bidding (take or pass the proposed card, then choose a trump), the coinche
auction, the contract, and Belote's announcements.

Everything here is read from one seat's observation (``engine.observe``): the
public auction, the contract, the announcements made (their cards only once the
engine shows them) and the seat's own legal actions. The buttons carry the move
as the one submit path expects it (``games.live.submit.play``); the engine
alone decides whether it is allowed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.actions import Action
from engine.cards import NO_TRUMP, TRUMP_CODES
from engine.observe import Observation
from games.labels import (
    CAPOT_BID,
    bid_label,
    call_label,
    coinche_contract_label,
    contract_label,
    contract_name,
    kind_label,
    trump_label,
)
from games.live.draw import drawing
from games.live.draw.cards import card_view, move_vals
from games.live.draw.viewing import DealSeen

_ = drawing.text

#: Trumps in the order the auction box offers them.
TRUMP_ORDER = ("C", "D", "H", "S", "AT", "NT")
RED_TRUMPS = ("D", "H")
#: Keys for the auction's calls (shown on the buttons).
CALL_KEYS = {"pass": "p", "coinche": "c", "surcoinche": "s"}
#: Every bidding call, classic or coinche: said aloud as "Name: call."
CALL_TYPES = ("pass", "take", "choose", "bid", "coinche", "surcoinche")
#: Keys for the bidding buttons (shown on them): P pass, T take, the suit's
#: letter to choose it, N for no trump.
BID_KEYS = {"pass": "p", "take": "t"}


def bidding_context(seen: DealSeen, names: dict[int, str]) -> dict[str, Any]:
    """The bidding: the coinche auction box (or, once over, its log) and
    contract, the proposed card, the trump and taker, and the viewer's bidding
    buttons and the bids so far in classic bidding."""
    obs, legal, version = seen.obs, seen.legal, seen.version
    coinche = is_coinche(obs)
    coinche_contract = contract_view(obs, names) if coinche else None
    return {
        "coinche": coinche,
        "auction": auction_view(obs, names, legal, version, seen.my_turn)
        if coinche and (obs.phase == "bidding" or obs.history)
        else None,
        "coinche_contract": coinche_contract,
        # Once the auction is over it stays readable below the felt.
        "auction_log": auction_view(obs, names, [], version, False)
        if coinche and obs.phase != "bidding"
        else None,
        "proposed": None
        if obs.proposed is None or obs.phase != "bidding"
        else card_view(obs.proposed),
        "trump": None if obs.trump is None else trump_label(TRUMP_CODES[obs.trump]),
        "trump_red": obs.trump in (1, 2),
        "taker_name": None if obs.taker is None else names.get(obs.taker),
        "contract": coinche_contract["label"]
        if coinche_contract is not None
        else contract_label(obs.trump, None if obs.taker is None else names.get(obs.taker)),
        "bids": [
            {
                "label": bid_words(a),
                "action": a.type,
                "trump": a.to_dict().get("trump", ""),
                "red": a.type == "choose" and a.trump in (1, 2),
                "key": _bid_key(a),
                "vals": move_vals({**a.to_dict(), "version": version}),
            }
            for a in legal
            # The coinche auction's pass is in its own box.
            if a.type in ("pass", "take", "choose") and not coinche
        ],
        "history_bids": _bids_so_far(obs, names),
    }


def bid_words(action: Any) -> str:
    """A bidding call in words."""
    if action.type in ("bid", "coinche", "surcoinche"):
        data = action.to_dict()
        return call_label(action.type, data.get("value"), data.get("trump"))
    return bid_label(action.type, action.trump)


def _bid_key(action: Any) -> str:
    if action.type in BID_KEYS:
        return BID_KEYS[action.type]
    if action.type == "choose":
        return "n" if action.trump == NO_TRUMP else TRUMP_CODES[action.trump].lower()
    return ""


def _bids_so_far(obs: Observation, names: dict[int, str]) -> list[str]:
    out: list[str] = []
    if is_coinche(obs):
        return out  # the auction box shows the calls
    for a in obs.history:
        if a.type in ("pass", "take", "choose"):
            out.append(
                _("%(name)s: %(bid)s") % {"name": names.get(a.seat, "?"), "bid": bid_words(a)}
            )
    return out


def trump_code(raw: Any) -> str:
    """A trump as its code, whether the engine gave its index or its code."""
    if isinstance(raw, int):
        return TRUMP_CODES[raw]
    return str(raw)


def is_coinche(obs: Observation) -> bool:
    return bool(getattr(obs.rules, "coinche", False))


def _calls(obs: Observation) -> list[dict[str, Any]]:
    return [dict(a) for a in getattr(obs, "auction", ()) or ()]


def multiplier_so_far(calls: list[dict[str, Any]]) -> int:
    """1 after a bid, 2 after coinche, 4 after surcoinche (docs/rules.md §7.2)."""
    multiplier = 1
    for call in calls:
        if call.get("type") == "bid":
            multiplier = 1
        elif call.get("type") == "coinche":
            multiplier = 2
        elif call.get("type") == "surcoinche":
            multiplier = 4
    return multiplier


def contract_view(obs: Observation, names: dict[int, str]) -> dict[str, Any] | None:
    """The contract (once the auction is over) or the highest bid so far, with its
    multiplier: the table's ``[data-contract]``. None before the first bid."""
    contract = getattr(obs, "contract", None)
    if contract is not None:
        value, trump = contract["value"], trump_code(contract["trump"])
        taker, multiplier = contract["taker"], contract["multiplier"]
        settled = True
    else:
        highest = getattr(obs, "highest_bid", None)
        if highest is None:
            return None
        value, trump, taker = highest["value"], trump_code(highest["trump"]), highest["seat"]
        multiplier = multiplier_so_far(_calls(obs))
        settled = False
    return {
        "value": value,
        "trump": trump,
        "multiplier": multiplier,
        "taker": taker,
        "settled": settled,
        "red": trump in RED_TRUMPS,
        "label": coinche_contract_label(value, trump, multiplier, names.get(taker, "?")),
    }


def auction_view(
    obs: Observation,
    names: dict[int, str],
    legal: Sequence[Action],
    version: int,
    my_turn: bool,
) -> dict[str, Any] | None:
    """The auction box: the calls so far in a grid (one column per seat, from the
    first to speak) and, at the viewer's turn, the bids and calls they may make."""
    if not is_coinche(obs):
        return None
    n = obs.seats
    first = (obs.dealer + 1) % n
    order = [(first + i) % n for i in range(n)]
    rows: list[list[dict[str, Any] | None]] = []
    for i, call in enumerate(_calls(obs)):
        if i % n == 0:
            rows.append([None] * n)
        kind = str(call.get("type"))
        value = call.get("value")
        trump = None if call.get("trump") is None else trump_code(call["trump"])
        column = order.index(call["seat"]) if call.get("seat") in order else i % n
        rows[-1][column] = {
            "seat": call.get("seat"),
            "kind": kind,
            "value": value,
            "trump": trump,
            "red": trump in RED_TRUMPS,
            "label": call_label(kind, value, trump),
        }
    view: dict[str, Any] = {
        "columns": [{"seat": s, "name": names.get(s, "?")} for s in order],
        "rows": rows,
        "values": [],
        "calls": [],
        "selected": None,
        "open": obs.phase == "bidding",
    }
    if not my_turn:
        return view
    by_value: dict[int, list[dict[str, Any]]] = {}
    for action in legal:
        if action.type == "bid":
            data = action.to_dict()
            code = trump_code(data["trump"])
            by_value.setdefault(int(data["value"]), []).append(
                {
                    "code": code,
                    "label": trump_label(code),
                    "red": code in RED_TRUMPS,
                    "order": TRUMP_ORDER.index(code) if code in TRUMP_ORDER else 9,
                    "name": contract_name(int(data["value"]), code),
                    "vals": move_vals({**data, "version": version}),
                }
            )
        elif action.type in CALL_KEYS:
            view["calls"].append(
                {
                    "action": action.type,
                    "key": CALL_KEYS[action.type],
                    "label": call_label(action.type),
                    "vals": move_vals({**action.to_dict(), "version": version}),
                }
            )
    view["values"] = [
        {
            "value": value,
            "label": _("Capot") if value == CAPOT_BID else str(value),
            "trumps": sorted(trumps, key=lambda t: t["order"]),
        }
        for value, trumps in sorted(by_value.items())
    ]
    view["selected"] = view["values"][0]["value"] if view["values"] else None
    view["calls"].sort(key=lambda c: list(CALL_KEYS).index(c["action"]))
    return view


#: Belote's names for the combinations (engine.declarations finds them with
#: Open Blot's kinds: a run of 3, 4, 5+ and four of a kind).
_RUN_KINDS = {3: "tierce", 4: "cinquante"}


def belote_kind(codes: list[str]) -> str:
    """The kind of an announced Belote combination from its cards' codes."""
    ranks = {code[0] for code in codes}
    if len(codes) == 4 and len(ranks) == 1:
        return "carre"
    return _RUN_KINDS.get(len(codes), "cent")


def announced(obs: Observation, names: dict[int, str]) -> list[dict[str, Any]]:
    """The announcements made so far (Belote with announcements): kind and points
    are public when made; the cards only once the engine shows them."""
    if obs.variant != "belote":
        return []
    out = []
    for d in obs.declarations:
        out.append(
            {
                "seat": d.seat,
                "kind": d.kind,
                "points": d.points,
                "name": names.get(d.seat, "?"),
                "label": kind_label(d.kind),
                "sentence": _("%(name)s announced %(kind)s (%(points)s).")
                % {"name": names.get(d.seat, "?"), "kind": kind_label(d.kind), "points": d.points},
                "cards": list(d.cards),
            }
        )
    return out
