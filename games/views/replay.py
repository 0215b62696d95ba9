"""The replay of a finished deal: the table as it was after any step, drawn on
the live table's felt (every hand face up; Open Blot: the stacks, the face-down
cards shown too, marked), the trick in the middle and the last trick beside it,
one page per step, opening at the first.

A deal still being played has no replay for anybody, staff included: the same
rule as its deck and record (``matches._record_visible``), since a replay shows
every hand.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from engine import Action
from engine.belote import BeloteDeal
from engine.cards import TRUMP_CODES, cards_in
from engine.cards import card as card_of
from engine.deal import BIDDING
from engine.deal import Deal as EngineDeal
from engine.observe import observe
from engine.open_blot import NO_CARD, OpenBlotDeal
from engine.record import deal_from
from games import access
from games.labels import bid_label, call_label, contract_label, kind_label, trump_label
from games.live.draw import auction as auction_draw
from games.live.draw import drawing
from games.live.draw.cards import card_view, sorted_hand
from games.views.analysis import choice_label, replay_context


def _describe(action: dict[str, Any], names: dict[int, str]) -> str:
    """The step in words, as the live table says it: the name as a label, never
    declined."""
    name = names.get(action.get("seat", -1), "?")
    kind = str(action.get("type"))
    if kind in ("pass", "take", "choose"):
        code = action.get("trump")
        trump = TRUMP_CODES.index(code) if code in TRUMP_CODES else None
        return _("%(name)s: %(bid)s.") % {"name": name, "bid": bid_label(kind, trump)}
    if kind in ("bid", "coinche", "surcoinche"):
        return _("%(name)s: %(bid)s.") % {
            "name": name,
            "bid": call_label(kind, action.get("value"), action.get("trump")),
        }
    if kind == "declare":
        cards = " ".join(choice_label(c) for c in action.get("cards", []))
        return _("%(name)s — declaration: %(cards)s.") % {"name": name, "cards": cards}
    code = action["card"]
    return _("%(name)s played %(rank)s%(suit)s.") % {
        "name": name,
        "rank": "10" if code[0] == "T" else code[0],
        "suit": trump_label(code[1]),
    }


def _seat(deal: EngineDeal, seat: int, names: dict[int, str]) -> dict[str, Any]:
    """One seat's place on the felt, its cards face up."""
    view: dict[str, Any] = {
        "index": seat,
        "name": names.get(seat, "?"),
        "position": seat % deal.seats,  # seat 1 at the bottom, as spectators see it
        "is_turn": deal.to_act == seat,
        "is_dealer": deal.dealer == seat,
        "is_taker": deal.taker == seat,
        "tricks_won": deal.tricks_won[seat % 2],
    }
    if isinstance(deal, BeloteDeal):
        view["hand"] = [card_view(c) for c in sorted_hand(cards_in(deal.hands[seat]), deal.trump)]
        return view
    assert isinstance(deal, OpenBlotDeal)
    stacks = []
    for stack in range(8):
        up, down = deal.up[seat][stack], deal.down[seat][stack]
        top = up if up != NO_CARD and deal.face_up[seat] >> up & 1 else None
        live = down != NO_CARD and (deal.face_down[seat] | deal.face_up[seat]) >> down & 1
        hidden = down != NO_CARD and bool(deal.face_down[seat] >> down & 1)
        stacks.append(
            {
                "top": None if top is None else card_view(top),
                "under": card_view(down) if live else None,
                "was_down": hidden,
            }
        )
    view["stacks"] = stacks
    return view


def _trick(deal: EngineDeal, names: dict[int, str]) -> dict[str, Any]:
    """The middle of the felt: the trick in play, or the one just completed
    (with its winner) until the next card is led; and the trick before it."""
    if deal.trick:
        leader = (deal.to_act or 0) - len(deal.trick)
        seats = [(leader + i) % deal.seats for i in range(len(deal.trick))]
        current = list(zip(seats, deal.trick, strict=True))
        winner, complete = None, False
        previous = deal.tricks[-1] if deal.tricks else None
    elif deal.tricks:
        leader, cards, winner, _points = deal.tricks[-1]
        current = [((leader + i) % deal.seats, c) for i, c in enumerate(cards)]
        complete = True
        previous = deal.tricks[-2] if len(deal.tricks) > 1 else None
    else:
        current, winner, complete, previous = [], None, False, None
    last = None
    if previous is not None:
        p_leader, p_cards, p_winner, _points = previous
        last = [
            {
                "name": names.get((p_leader + i) % deal.seats, "?"),
                "card": card_view(c),
                "won": (p_leader + i) % deal.seats == p_winner,
            }
            for i, c in enumerate(p_cards)
        ]
    return {
        "trick": [
            {
                "seat": s,
                "name": names.get(s, "?"),
                "position": s % deal.seats,
                "card": card_view(c),
                "won": complete and s == winner,
            }
            for s, c in current
        ],
        "trick_complete": complete,
        "trick_winner": winner,
        "last_trick": last,
    }


def _felt(deal: EngineDeal, names: dict[int, str]) -> str:
    """The table at this step, drawn with the live table's felt and cards."""
    seats = sorted((_seat(deal, s, names) for s in range(deal.seats)), key=lambda v: v["position"])
    proposed = (
        card_view(deal.proposed)
        if isinstance(deal, BeloteDeal) and deal.phase == BIDDING
        else None
    )
    context = {
        "variant": deal.variant,
        "seat_count": deal.seats,
        "seats": seats,
        "proposed": proposed,
        **_trick(deal, names),
    }
    return drawing.draw("live/replay_felt.html", context)


def deal_replay(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    deal_row = access.get_deal(request, pk, number)
    match = deal_row.match
    context: dict[str, Any] = {"deal": deal_row, "match": match}
    if not deal_row.is_finished:
        return render(request, "games/replay.html", {**context, "refused": True}, status=403)
    actions = list(deal_row.actions)
    total = len(actions)
    try:
        step = int(request.GET.get("step", 0))
    except ValueError:
        step = 0
    step = max(0, min(step, total))
    names = {p.index: p.shown_name for p in match.participants.all()}
    deal = deal_from(deal_row.record())
    for raw in actions[:step]:
        deal.apply(Action.from_dict(raw))
    # The auction and the announcements so far, as the table showed them (a
    # replay shows every hand, so every announcement's cards too).
    seen = observe(deal, None)
    coinche = auction_draw.is_coinche(seen)
    auction = auction_draw.auction_view(seen, names, [], 0, False) if coinche else None
    coinche_contract = auction_draw.contract_view(seen, names) if coinche else None
    announced = [
        {
            "seat": a["seat"],
            "kind": auction_draw.belote_kind(a["cards"]),
            "sentence": _("%(name)s announced %(kind)s.")
            % {
                "name": names.get(a["seat"], "?"),
                "kind": kind_label(auction_draw.belote_kind(a["cards"])),
            },
            "cards": [card_view(card_of(c)) for c in a["cards"]],
        }
        for a in actions[:step]
        if a.get("type") == "declare" and deal_row.match.variant == "belote"
    ]
    context.update(
        {
            "step": step,
            "steps": total,
            "prev": max(step - 1, 0),
            "next": min(step + 1, total),
            "felt": _felt(deal, names),
            "contract": coinche_contract["label"]
            if coinche_contract is not None
            else contract_label(
                deal.trump, None if deal.taker is None else names.get(deal.taker, "?")
            ),
            "coinche_contract": coinche_contract,
            "calls": drawing.draw(
                "live/_replay_calls.html",
                {
                    "auction": auction if auction and auction["rows"] else None,
                    "announced": announced,
                },
            ),
            "card_points": list(deal.card_points),
            "tricks_won": list(deal.tricks_won),
            "said": _describe(actions[step - 1], names) if step else _("The cards are dealt."),
            "result": deal_row.result if step == total else None,
            "sides": _side_names(names, deal.seats),
        }
    )
    context.update(replay_context(deal_row, step, names, actions))
    return render(request, "games/replay.html", context)


def _side_names(names: dict[int, str], seats: int) -> list[str]:
    if seats == 2:
        return [names.get(0, "?"), names.get(1, "?")]
    return [
        _("%(a)s and %(b)s") % {"a": names.get(s, "?"), "b": names.get(s + 2, "?")}
        for s in (0, 1)
    ]

