"""The score: the match's running score and score table, the result of the
deal just finished (and of the match), and the points of the deal on the table."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import ngettext

from engine.observe import Observation
from games.labels import (
    contract_name,
    format_label,
    result_announcements_label,
    result_contract_label,
    suit_color,
    trump_label,
    unrated_label,
)
from games.live.draw import auction, drawing
from games.live.draw.cards import code_view
from games.live.draw.viewing import MatchState, once, sentence, side_names
from games.models import Deal, Match, Table
from games.services import fairplay, ratings

_ = drawing.text


def match_score_context(table: Table, seat: int | None, state: MatchState) -> dict[str, Any]:
    """The match's score: the score table's rows (with each coinche deal's
    contract and counted announcements), the running score from the viewer's
    side, the last deal's result and, at the end, the winner and ratings."""
    match = state.match
    finished = state.finished
    # A coinche deal's contract and every deal's counted announcements, in the
    # score table's words, by deal number.
    row_notes = {
        d.number: (result_contract_label(d.result), result_announcements_label(d.result))
        for d in finished
    }
    return {
        "row_notes": row_notes,
        "rows": state.rows,
        "match_over": state.match_over,
        "winner_name": None if match.winner is None else state.side_names[match.winner],
        "rating_changes": state.rating_changes,
        "unrated": once("unrated", lambda: _unrated(match))
        if state.match_over and match.rated
        else None,
        "last_result": _result_view(finished[-1], state.names, table.variant)
        if finished
        else None,
        "score": _match_score(table, seat, state.side_names, state.rows),
    }


def deal_score_context(obs: Observation, side_names: list[str]) -> dict[str, Any]:
    """The deal on the table's points so far: each side's card points and tricks."""
    return {
        "card_points": obs.card_points,
        "tricks_won": obs.tricks_won,
        "deal_score": [
            sentence(
                ngettext(
                    "%(name)s %(points)s points in %(n)s trick.",
                    "%(name)s %(points)s points in %(n)s tricks.",
                    obs.tricks_won[side],
                ),
                name=side_names[side],
                points=obs.card_points[side],
                n=obs.tricks_won[side],
            )
            for side in (0, 1)
        ],
    }


def _match_score(
    table: Table, seat: int | None, side_names: list[str], rows: list[Any]
) -> dict[str, Any]:
    """The running match score from the viewer's side: us first, then them."""
    totals = list(rows[-1].totals) if rows else [0, 0]
    mine = 0 if seat is None else seat % 2
    if seat is None:
        labels = side_names
    elif table.variant == "belote":
        labels = [_("Us"), _("Them")] if mine == 0 else [_("Them"), _("Us")]
    else:
        labels = [_("Me"), _("Opponent")] if mine == 0 else [_("Opponent"), _("Me")]
    order = [mine, 1 - mine]
    return {
        "sides": [{"label": labels[i], "points": totals[i], "side": i} for i in order],
        "target": once("format", lambda: format_label(table.format)),
    }


def _result_view(deal: Deal, names: dict[int, str], variant: str) -> dict[str, Any] | None:
    """The finished deal's result as the table shows it until the next deal."""
    result = deal.result
    if not result:
        return None
    outcome_labels = {"made": _("made"), "inside": _("inside"), "litige": _("litige")}
    return {
        "summary": _summary(result, names),
        "multiplier_sentence": _multiplier_sentence(result),
        "belote_points": _belote_points(result.get("belote")),
        "trump_sentence": _trump_sentence(result.get("trump")),
        "capot_sentence": _capot_sentence(result.get("capot"), names, variant),
        "number": deal.number,
        "replay_url": reverse("deal_replay", args=[deal.match_id, deal.number]),
        "void": result["void"],
        "trump": trump_label(result.get("trump")),
        "taker": names.get(result["taker"]) if result.get("taker") is not None else None,
        "outcome": outcome_labels.get(result.get("outcome") or "", ""),
        "card_points": result.get("card_points"),
        "deal_points": result.get("deal_points"),
        "capot": result.get("capot"),
        "belote": result.get("belote"),
        "held_points": result.get("held_points"),
        "held_sentence": sentence(
            ngettext("%(n)s point held.", "%(n)s points held.", result.get("held_points") or 0),
            n=result.get("held_points"),
        ),
        "declarations": [
            {
                "name": names.get(d["seat"]),
                "kind": d["kind"],
                "points": d["points"],
                # One number for the side that declared: in its own column.
                "side": d["seat"] % 2,
                "counted": d["counted"],
                "cards": [code_view(c) for c in d["cards"]],
            }
            for d in result.get("declarations") or []
        ],
    }


def _summary(result: dict[str, Any], names: dict[int, str]) -> str:
    """How the deal went for its taker; a coinche deal's contract in words."""
    outcome = result.get("outcome") or ""
    contract = result.get("contract")
    if contract:
        words = {
            "contract": contract_name(contract["value"], auction.trump_code(contract["trump"])),
            "name": names.get(contract["taker"], "?"),
        }
        return (
            _("%(name)s made the contract %(contract)s.")
            if outcome == "made"
            else _("%(name)s failed the contract %(contract)s.")
        ) % words
    sentences = {
        "made": _("%(name)s made the contract."),
        "inside": _("%(name)s went inside."),
        "litige": _("Litige: the points in dispute are held for the next deal."),
    }
    taker = names.get(result["taker"]) if result.get("taker") is not None else None
    return sentences[outcome] % {"name": taker} if outcome in sentences else ""


def _multiplier_sentence(result: dict[str, Any]) -> str | None:
    """A coinche deal's doubling, if it was coinched."""
    contract = result.get("contract")
    if not contract:
        return None
    if contract.get("multiplier", 1) >= 4:
        return _("Surcoinched: the points are multiplied by four.")
    if contract.get("multiplier", 1) >= 2:
        return _("Coinched: the points are doubled.")
    return None


def _capot_sentence(capot: int | None, names: dict[int, str], variant: str) -> str | None:
    if capot is None:
        return None
    return (
        _("Capot: %(side)s won every trick.")
        if variant == "belote"
        else _("Kapout: %(side)s won every trick.")
    ) % {"side": side_names(variant, names)[capot]}


def _belote_points(belote: int | list[int] | None) -> list[int] | None:
    """Belote is 20 for a side, or (all-trump) 20 per suit whose king and queen
    one of its players held: the side of each, in a list."""
    belote_sides = [] if belote is None else (belote if isinstance(belote, list) else [belote])
    return [20 * belote_sides.count(side) for side in (0, 1)] if belote_sides else None


def _trump_sentence(trump: str | None) -> str:
    if trump == "NT":
        return _("No trump.")
    if trump == "AT":
        return _("All trump.")
    return sentence(
        _("Trump: %(suit)s."),
        suit=format_html('<span class="suit-{}">{}</span>', suit_color(trump), trump_label(trump)),
    )


def _unrated(match: Match) -> dict[str, str] | None:
    """Why a finished rated match moved no rating, if it moved none."""
    found = ratings.unrated_of(match)
    if found is None:
        return None
    return {
        "reason": found.reason,
        "sentence": unrated_label(found.reason, fairplay.DAILY_MEETINGS),
    }
