"""An observation back from its JSON form (:meth:`Observation.to_dict`).

A program that plays through the site's Bot API receives its seat's
observation as JSON; with this it rebuilds the very
:class:`~engine.observe.Observation` the built-in bots decide from, so
``engine.ai.decide`` plays through the API exactly as it plays at the table
(``examples/normal_bot.py``). ``observation_from_dict(obs.to_dict()) == obs``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.actions import DECLARE, Action
from engine.cards import Card, card, parse_trump
from engine.observe import DeclarationView, Observation, Stack
from engine.result import TrickRecord
from engine.rules import RuleSet


def _card_or_none(code: Any) -> Card | None:
    return None if code is None else card(code)


def _stack(raw: Mapping[str, Any]) -> Stack:
    return _card_or_none(raw["top"]), bool(raw["face_down"])


def observation_from_dict(data: Mapping[str, Any]) -> Observation:
    """The observation ``data`` describes; ``ValueError`` or ``KeyError`` when it
    is not one."""
    variant = str(data["variant"])
    return Observation(
        variant=variant,
        rules=RuleSet.build(variant, data["rules"]),
        seat=None if data["seat"] is None else int(data["seat"]),
        seats=len(data["hand_sizes"]),
        dealer=int(data["dealer"]),
        phase=str(data["phase"]),
        bid_round=int(data["bid_round"]),
        to_act=None if data["to_act"] is None else int(data["to_act"]),
        trump=None if data["trump"] is None else parse_trump(data["trump"]),
        taker=None if data["taker"] is None else int(data["taker"]),
        proposed=_card_or_none(data["proposed"]),
        hand=tuple(card(c) for c in data["hand"]),
        hand_sizes=tuple(int(n) for n in data["hand_sizes"]),
        stacks=tuple(tuple(_stack(s) for s in row) for row in data["stacks"]),
        leader=int(data["leader"]),
        trick=tuple((int(t["seat"]), card(t["card"])) for t in data["trick"]),
        tricks=tuple(
            TrickRecord(int(t["leader"]), tuple(str(c) for c in t["cards"]), int(t["winner"]),
                        int(t["points"]))
            for t in data["tricks"]
        ),
        declarations=tuple(
            DeclarationView(int(d["seat"]), str(d["kind"]), tuple(card(c) for c in d["cards"]),
                            int(d["points"]))
            for d in data["declarations"]
        ),
        announcements=tuple((int(a["seat"]), str(a["word"])) for a in data["announcements"]),
        card_points=(int(data["card_points"][0]), int(data["card_points"][1])),
        tricks_won=(int(data["tricks_won"][0]), int(data["tricks_won"][1])),
        history=tuple(_history_action(a) for a in data["history"]),
        legal=tuple(Action.from_dict(a) for a in data["legal"]),
        result=None if data["result"] is None else dict(data["result"]),
        auction=tuple(dict(a) for a in data.get("auction", ())),
        highest_bid=_dict_or_none(data.get("highest_bid")),
        contract=_dict_or_none(data.get("contract")),
        can_coinche=bool(data.get("can_coinche", False)),
        can_surcoinche=bool(data.get("can_surcoinche", False)),
        belote_calls=tuple(
            (int(a["seat"]), str(a["word"]))
            for a in data.get("belote_calls", data["announcements"])
        ),
        counted_side=None if data.get("counted_side") is None else int(data["counted_side"]),
    )


def _history_action(raw: Any) -> Action:
    """A history entry: canonical, or an announcement whose cards are not shown to
    this seat yet (``"cards": []``)."""
    if isinstance(raw, Mapping) and raw.get("type") == DECLARE and raw.get("cards") == []:
        return Action(int(raw["seat"]), DECLARE, cards=())
    return Action.from_dict(raw)


def _dict_or_none(raw: Any) -> dict[str, Any] | None:
    return None if raw is None else dict(raw)
