"""The replay of a finished deal: the table as it was after any step, every card
face up (Open Blot: the face-down cards shown too), one page per step.

A deal still being played has no replay for anybody, staff included: the same
rule as its deck and record (``matches._record_visible``), since a replay shows
every hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from engine import Action
from engine.belote import BeloteDeal
from engine.cards import CODES, TRUMP_CODES, cards_in
from engine.deal import BIDDING
from engine.open_blot import NO_CARD, OpenBlotDeal
from engine.record import deal_from
from games import access
from games.labels import bid_label, contract_label, trump_label
from games.views.analysis import choice_label, replay_context


@dataclass
class SeatView:
    seat: int
    name: str
    #: Belote: the hand; Open Blot: each stack as (top card, the card under it),
    #: either ``None`` once played; a face-down card is drawn face up, marked.
    cards: list[str] = field(default_factory=list)
    stacks: list[tuple[str | None, str | None, bool]] = field(default_factory=list)
    to_act: bool = False


def _card_text(code: str) -> str:
    return choice_label(code)


def _describe(action: dict[str, Any], names: dict[int, str]) -> str:
    """The step in words, as the live table says it: the name as a label, never
    declined (issue 21)."""
    name = names.get(action.get("seat", -1), "?")
    kind = str(action.get("type"))
    if kind in ("pass", "take", "choose"):
        code = action.get("trump")
        trump = TRUMP_CODES.index(code) if code in TRUMP_CODES else None
        return _("%(name)s: %(bid)s.") % {"name": name, "bid": bid_label(kind, trump)}
    if kind == "declare":
        cards = " ".join(_card_text(c) for c in action.get("cards", []))
        return _("%(name)s — declaration: %(cards)s.") % {"name": name, "cards": cards}
    code = action["card"]
    return _("%(name)s played %(rank)s%(suit)s.") % {
        "name": name,
        "rank": "10" if code[0] == "T" else code[0],
        "suit": trump_label(code[1]),
    }


def _seats(deal: Any, names: dict[int, str]) -> list[SeatView]:
    out = []
    for seat in range(deal.seats):
        view = SeatView(seat, names.get(seat, "?"), to_act=deal.to_act == seat)
        if isinstance(deal, BeloteDeal):
            view.cards = [CODES[c] for c in cards_in(deal.hands[seat])]
        else:
            assert isinstance(deal, OpenBlotDeal)
            for stack in range(8):
                up, down = deal.up[seat][stack], deal.down[seat][stack]
                top = CODES[up] if up != NO_CARD and deal.face_up[seat] >> up & 1 else None
                live = down != NO_CARD and (deal.face_down[seat] | deal.face_up[seat]) >> down & 1
                hidden = down != NO_CARD and bool(deal.face_down[seat] >> down & 1)
                view.stacks.append((top, CODES[down] if live else None, hidden))
        out.append(view)
    return out


def deal_replay(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    deal_row = access.get_deal(request, pk, number)
    match = deal_row.match
    context: dict[str, Any] = {"deal": deal_row, "match": match}
    if not deal_row.is_finished:
        return render(request, "games/replay.html", {**context, "refused": True}, status=403)
    actions = list(deal_row.actions)
    total = len(actions)
    try:
        step = int(request.GET.get("step", total))
    except ValueError:
        step = total
    step = max(0, min(step, total))
    names = {p.index: p.shown_name for p in match.participants.all()}
    deal = deal_from(deal_row.record())
    for raw in actions[:step]:
        deal.apply(Action.from_dict(raw))
    trick_leader = (deal.to_act or 0) - len(deal.trick)
    context.update(
        {
            "step": step,
            "steps": total,
            "prev": max(step - 1, 0),
            "next": min(step + 1, total),
            "seats": _seats(deal, names),
            "proposed": (
                CODES[deal.proposed]
                if isinstance(deal, BeloteDeal) and deal.phase == BIDDING else None
            ),
            "trick": [
                (names.get((trick_leader + i) % deal.seats, "?"), CODES[c])
                for i, c in enumerate(deal.trick)
            ],
            "last_trick": (
                [CODES[c] for c in deal.tricks[-1][1]] if deal.tricks and not deal.trick else []
            ),
            "contract": contract_label(
                deal.trump, None if deal.taker is None else names.get(deal.taker, "?")
            ),
            "card_points": list(deal.card_points),
            "tricks_won": list(deal.tricks_won),
            "said": _describe(actions[step - 1], names) if step else _("The cards are dealt."),
            "result": deal_row.result if step == total else None,
            "sides": _side_names(names, deal.seats),
        }
    )
    context.update(replay_context(deal_row, step, names))
    return render(request, "games/replay.html", context)


def _side_names(names: dict[int, str], seats: int) -> list[str]:
    if seats == 2:
        return [names.get(0, "?"), names.get(1, "?")]
    return [
        _("%(a)s and %(b)s") % {"a": names.get(s, "?"), "b": names.get(s + 2, "?")}
        for s in (0, 1)
    ]
