"""Drawing one viewer's table from the engine observation — the one place that
renders a seat's view, for the first page load and for every live update alike.

Everything shown comes from ``engine.observe`` for the viewer's seat (or the
spectator view), the table's seats and the stored score table: nothing here can
reach another seat's hidden cards.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.functional import Promise
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy, ngettext, pgettext

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
from engine.cards import card as card_of
from engine.declarations import Declaration
from engine.observe import Observation, observe
from games.labels import (
    SUIT_SYMBOLS,
    bid_label,
    call_label,
    contract_label,
    contract_name,
    format_label,
    kind_label,
    result_announcements_label,
    result_contract_label,
    suit_color,
    trump_label,
    unrated_label,
)
from games.live.draw import auction as auction_draw
from games.live.draw import drawing, match_actions
from games.models import Deal, Match, MatchEvent, RatingChange, Table
from games.services import fairplay, ratings, turnclock
from games.services.matches import result_pause

_ = drawing.text  # gettext, once per message while a move's frames are drawn

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
        "court": card & 7 in (4, 5, 6),
        "playable": play_version is not None,
    }
    if play_version is not None:
        view["vals"] = _vals({"type": "play", "card": CODES[card], "version": play_version})
    return view


def code_view(code: str) -> dict[str, Any]:
    return card_view(card_of(code))


def _hand_key(trump: int | None):
    def key(c: Card) -> tuple[int, int]:
        strength = STRENGTH[trump][c] if trump is not None else PLAIN_STRENGTH[c & 7]
        return HAND_SUIT_ORDER.index(c >> 3), -strength

    return key


def sorted_hand(cards: Iterable[Card], trump: int | None) -> list[Card]:
    """A hand in the table's order: alternate colours, strongest first."""
    return sorted(cards, key=_hand_key(trump))


def _if(condition: bool, version: int) -> int | None:
    return version if condition else None


def _vals(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"))


def _bid_label(action: Any) -> str:
    if action.type in ("bid", "coinche", "surcoinche"):
        data = action.to_dict()
        return call_label(action.type, data.get("value"), data.get("trump"))
    return bid_label(action.type, action.trump)


#: While :func:`render_viewpoints` runs: what every viewpoint of the table shares
#: (the match, its deals, the rebuilt deal), loaded once instead of once per seat.
_shared: ContextVar[dict[Any, Any] | None] = ContextVar("blot_render_shared", default=None)


def _once(key: str, load: Callable[[], Any]) -> Any:
    memo = _shared.get()
    if memo is None:
        return load()
    if key not in memo:
        memo[key] = load()
    return memo[key]


def _draw(template: str, context: dict[str, Any]) -> SafeString:
    """One of the live table's templates drawn (:mod:`games.live.draw.drawing`)."""
    return drawing.draw(template, context)


def _sentence(message: str, **values: Any) -> SafeString:
    """A translated sentence filled in: the translation is trusted markup, what
    fills it is escaped (as Django's ``{% blocktranslate %}`` does)."""
    return mark_safe(message % {key: conditional_escape(v) for key, v in values.items()})


def _fragment(template: str, context: dict[str, Any]) -> SafeString:
    """A part of the table drawn from ``context`` alone (plain data, no models):
    while a table's viewpoints are drawn, a part whose context is the same for
    several of them (the score table, a seat seen by its neighbours) is drawn
    once. The key is the whole context, so equal keys are equal drawings."""
    memo = _shared.get()
    if memo is None:
        return _draw(template, context)
    key = ("fragment", template, repr(context))
    if key not in memo:
        memo[key] = _draw(template, context)
    return memo[key]


def render_viewpoints(
    table: Table, seats: list[int | None], shared: dict[str, Any] | None = None
) -> dict[int | None, str]:
    """The table drawn for each of ``seats`` (None: spectators), loading what
    they share once (``shared``: what the caller loaded already). Each viewpoint
    still gets only its own observation."""
    token = _shared.set(dict(shared or {}))
    try:
        with drawing.one_language():
            return {seat: render_table(table, seat, oob=True) for seat in seats}
    finally:
        _shared.reset(token)


def table_context(table: Table, seat: int | None) -> dict[str, Any]:
    """Everything the table template needs for ``seat`` (None: a spectator)."""
    match = _once("match", lambda: table.matches.order_by("-id").first())
    context: dict[str, Any] = {
        "table": table,
        "variant": table.variant,
        "seat": seat,
        "match": match,
        "version": table.version,
        "format": _once("format", lambda: format_label(table.format)),
        "trick_pause_ms": table.trick_pause_ms,
        "rated": table.rated,
        "watchers": _fragment("live/_watchers.html", _watchers(_watching(table, seat), oob=False)),
    }
    # Every seat's row, shared by all viewpoints: who may leave or return, and
    # whose seat a stand-in plays because they left.
    seat_rows = _once("seats", lambda: {row.index: row for row in table.seats.order_by("index")})
    if match is None:
        context["match_actions"] = match_actions.view(table, match, seat, seats=seat_rows)
        return context
    participants = _once(
        "participants",
        lambda: list(ratings.with_ratings(match.participants.all(), match.game)),
    )
    match_over = match.status == Match.Status.FINISHED
    # Who resigned: read only when someone may have (a resigned seat stays a
    # left one, to the match's end and after), so an ordinary move's frame costs
    # no query.
    maybe_resigned = any(row.left_at for row in seat_rows.values())
    resigned: set[int] = (
        _once("resigned", lambda: set(
            match.events.filter(kind=MatchEvent.Kind.RESIGNED).values_list("index", flat=True)
        ))
        if maybe_resigned
        else set()
    )
    context["match_actions"] = match_actions.view(
        table, match, seat, seats=seat_rows, participants=participants, resigned=resigned
    )
    if match.tournament_id is not None:
        context["tournament_url"] = match_actions.reverse("tournament", args=[match.tournament_id])
    left = {
        index
        for index, row in seat_rows.items()
        if row.left_at is not None and match.status == Match.Status.PLAYING
    }
    # Seats a stand-in plays though their person has not left: the clock ran
    # out, or they are away. Everyone (spectators too) sees it at the seat.
    timed_out = {
        index
        for index, row in seat_rows.items()
        if row.stand_in_since is not None and row.left_at is None
        and match.status == Match.Status.PLAYING
    }
    playing_people = sum(
        1 for row in seat_rows.values() if row.user_id is not None and row.left_at is None
    )
    names = {p.index: p.shown_name for p in participants}  # bots named in the reader's language
    bots = {p.index for p in participants if p.bot_level}
    # Each person's rating beside their name: read with the participants, once for
    # every viewpoint (and once per deal per process: games.live.store.history).
    seat_ratings: dict[int, str] = _once(
        "seat_ratings", lambda: seat_rating_labels(participants)
    )
    bot_accounts = {p.index for p in participants if p.bot_account}
    # Finished deals' action logs are never drawn: only the shown deal's log is
    # read (one deferred load), so a frame costs the same at deal 1 and deal 40.
    deals = _once("deals", lambda: list(match.deals.order_by("number").defer("actions")))
    open_deal = next((d for d in reversed(deals) if d.status == Deal.Status.PLAYING), None)
    finished = [d for d in deals if d.status == Deal.Status.FINISHED]
    shown = open_deal or (finished[-1] if finished else None)
    n = table.seat_count
    base = seat if seat is not None else 0
    side_names = _side_names(table.variant, names)
    rows = _once("rows", lambda: list(match.score_rows.order_by("number")))
    changes = (
        _once("rating_changes", lambda: _rating_changes(match))
        if match_over and match.rated
        else []
    )
    if changes:  # the ratings this match's end has just moved
        seat_ratings = {**seat_ratings, **{c["index"]: c["after"] for c in changes}}
    # A coinche deal's contract and every deal's counted announcements, in the
    # score table's words, by deal number.
    row_notes = {
        d.number: (result_contract_label(d.result), result_announcements_label(d.result))
        for d in finished
    }
    context.update(
        row_notes=row_notes,
        resigned_names=", ".join(names.get(i, "?") for i in sorted(resigned)),
        names=names,
        side_names=side_names,
        rows=rows,
        match_over=match_over,
        winner_name=None if match.winner is None else side_names[match.winner],
        rating_changes=changes,
        unrated=_once("unrated", lambda: _unrated(match)) if match_over and match.rated else None,
        last_result=_result_view(finished[-1], names, table.variant) if finished else None,
        score=_match_score(table, seat, side_names, rows),
    )
    if shown is None:
        return context
    obs = observe(_once("engine", shown.rebuild), seat)
    # Between deals (and at match end) the finished deal stays on the table: its
    # last trick and its result, until the next deal is dealt.
    between_deals = open_deal is None
    # A person who left is offered no moves (the stand-in plays their seat), and
    # a left seat runs no turn clock: the stand-in moves at bot time.
    legal = [] if seat in left else obs.legal
    legal_cards = {a.card for a in legal if a.type == "play"}
    version = table.version
    deadline_ms = None
    stand_ins = left | timed_out
    if open_deal is not None and obs.to_act is not None and obs.to_act not in bots | stand_ins:
        deadline = turnclock.turn_deadline(table, open_deal.started_at, seat_rows[obs.to_act])
        deadline_ms = int(deadline.timestamp() * 1000)
    next_deal = None
    if between_deals and not match_over and shown.finished_at is not None:
        # The result stays until it has been read (services.matches.result_pause):
        # a countdown to the next deal, and for a person alone with bots a button.
        pause = result_pause(table, timedelta(milliseconds=1), playing_people)
        deadline_ms = int((shown.finished_at + pause).timestamp() * 1000)
        mine = seat_rows.get(seat) if seat is not None else None
        alone = (
            playing_people == 1
            and mine is not None
            and mine.user_id is not None
            and mine.left_at is None
        )
        next_deal = {
            "url": match_actions.reverse("match_next_deal", args=[table.pk]) if alone else None,
        }
    trick, complete, winner = _trick_on_table(obs)
    callouts = _callouts(obs, trick)
    coinche = auction_draw.is_coinche(obs)
    announced = auction_draw.announced(obs, names)
    for a in announced:
        a["card_views"] = [card_view(c) for c in a["cards"]]
    # Announcements stay at their seat through the first two tricks (the cards of
    # the side whose announcements count are shown there after the first).
    announced_at_seats = len(obs.tricks) <= 1 and obs.phase == "play"
    seats = []
    for s in range(n):
        position = (s - base) % n
        view: dict[str, Any] = {
            "index": s,
            "name": names.get(s, "?"),
            "rating": seat_ratings.get(s),
            "position": position,
            "is_me": s == seat,
            "is_turn": s == obs.to_act,
            "is_dealer": s == obs.dealer,
            "is_taker": s == obs.taker,
            "hand_size": obs.hand_sizes[s],
            "is_bot": s in bots,
            "bot_account": s in bot_accounts,
            "stand_in": s in stand_ins,
            "timed_out": s in timed_out,
            "resigned": s in resigned,
            "backs": range(obs.hand_sizes[s]),
            "backs_label": _sentence(
                ngettext("%(n)s card", "%(n)s cards", obs.hand_sizes[s]), n=obs.hand_sizes[s]
            ),
            "clock": deadline_ms is not None and s == obs.to_act,
            "callouts": callouts.get(s, []),
            "announced": [a for a in announced if a["seat"] == s] if announced_at_seats else [],
            "tricks_won": obs.tricks_won[s % 2],
        }
        if obs.stacks:
            view["stacks"] = [
                {
                    "top": None
                    if top is None
                    else card_view(top, _if(s == seat and top in legal_cards, version)),
                    "face_down": down,
                    # Own stacks that cannot be played now are dimmed, like a hand.
                    "dim": s == seat and obs.to_act == seat and obs.phase == "play"
                    and top not in legal_cards,
                }
                for top, down in obs.stacks[s]
            ]
        seats.append(view)
    seats.sort(key=lambda v: v["position"])
    hand = [
        card_view(c, _if(c in legal_cards, version))
        for c in sorted_hand(obs.hand, obs.trump)
    ]
    playing_my_turn = (
        seat is not None and obs.to_act == seat and obs.phase == "play" and seat not in left
    )
    dealer_mark = _once("dealer_mark", lambda: pgettext("dealer mark", "D"))
    for view in seats:
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
    to_act_name = None if obs.to_act is None else names.get(obs.to_act)
    my_turn = seat is not None and obs.to_act == seat and seat not in left
    coinche_contract = auction_draw.contract_view(obs, names) if coinche else None
    context.update(
        coinche=coinche,
        auction=auction_draw.auction_view(obs, names, legal, version, my_turn)
        if coinche and (obs.phase == "bidding" or obs.history)
        else None,
        coinche_contract=coinche_contract,
        # Once the auction is over it stays readable below the felt.
        auction_log=auction_draw.auction_view(obs, names, [], version, False)
        if coinche and obs.phase != "bidding"
        else None,
        announced=announced,
        deal=shown,
        obs=obs,
        between_deals=between_deals,
        to_act=obs.to_act,
        to_act_name=to_act_name,
        to_act_label=_to_act_label(obs, to_act_name),
        my_turn=my_turn,
        next_deal=next_deal,
        playing_my_turn=playing_my_turn,
        seats=seats,
        me=next((v for v in seats if v["is_me"]), None),
        bottom=seats[0],
        others=seats[1:],
        hand=hand,
        proposed=None
        if obs.proposed is None or obs.phase != "bidding"
        else card_view(obs.proposed),
        trump=None if obs.trump is None else trump_label(TRUMP_CODES[obs.trump]),
        trump_red=obs.trump in (1, 2),
        taker_name=None if obs.taker is None else names.get(obs.taker),
        contract=coinche_contract["label"]
        if coinche_contract is not None
        else contract_label(obs.trump, None if obs.taker is None else names.get(obs.taker)),
        trick=[
            {
                "seat": s,
                "name": names.get(s),
                "position": (s - base) % n,
                "card": card_view(c),
                "won": complete and s == winner,
            }
            for s, c in trick
        ],
        trick_complete=complete,
        trick_winner=winner,
        trick_winner_position=None if winner is None else (winner - base) % n,
        last_trick=_last_trick(obs, names, n),
        bids=[
            {
                "label": _bid_label(a),
                "action": a.type,
                "trump": a.to_dict().get("trump", ""),
                "red": a.type == "choose" and a.trump in (1, 2),
                "key": _bid_key(a),
                "vals": _vals({**a.to_dict(), "version": version}),
            }
            for a in legal
            # The coinche auction's pass is in its own box.
            if a.type in ("pass", "take", "choose") and not coinche
        ],
        announce=[
            {
                "label": _declaration_label(a, obs.variant),
                "kind": _declaration_kind(a, obs.variant),
                "codes": " ".join(a.to_dict()["cards"]),
                "cards": [code_view(c) for c in a.to_dict()["cards"]],
                "vals": _vals(
                    {"type": "declare", "cards": " ".join(a.to_dict()["cards"]), "version": version}
                ),
            }
            for a in legal
            if a.type == "declare"
        ],
        declarations=[
            {
                "name": names.get(d.seat),
                "kind": d.kind,
                "points": d.points,
                "sentence": _sentence(
                    ngettext(
                        "%(name)s: %(kind)s, %(points)s point.",
                        "%(name)s: %(kind)s, %(points)s points.",
                        d.points,
                    ),
                    name=names.get(d.seat),
                    kind=kind_label(d.kind),
                    points=d.points,
                ),
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
        deal_score=[
            _sentence(
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
        deadline_ms=deadline_ms,
        history_bids=_bids_so_far(obs, names),
        say=_say(
            obs, None if seat in left else seat, names, trick, complete, winner,
            played_for_me=seat in timed_out,
        ),
    )
    return context


#: Every bidding call, classic or coinche: said aloud as "Name: call."
CALL_TYPES = ("pass", "take", "choose", "bid", "coinche", "surcoinche")


def _to_act_label(obs: Observation, name: str | None) -> str | None:
    if name is None:
        return None
    if obs.phase == "bidding":
        return _("%(name)s to bid") % {"name": name}
    return _("%(name)s to play") % {"name": name}


#: Keys for the bidding buttons (shown on them): P pass, T take, the suit's
#: letter to choose it, N for no trump.
BID_KEYS = {"pass": "p", "take": "t"}


def _bid_key(action: Any) -> str:
    if action.type in BID_KEYS:
        return BID_KEYS[action.type]
    if action.type == "choose":
        return "n" if action.trump == NO_TRUMP else TRUMP_CODES[action.trump].lower()
    return ""


def _trick_on_table(obs: Observation) -> tuple[list[tuple[int, Card]], bool, int | None]:
    """The cards in the middle: the trick being played, or, until the next card is
    led (and between deals), the trick just completed, with its winner."""
    if obs.trick:
        return list(obs.trick), False, None
    if obs.phase in ("play", "over") and obs.tricks:
        last = obs.tricks[-1]
        seats = [(last.leader + i) % obs.seats for i in range(len(last.cards))]
        return [(s, card_of(c)) for s, c in zip(seats, last.cards, strict=True)], True, last.winner
    return [], False, None


def _callouts(obs: Observation, trick: list[tuple[int, Card]]) -> dict[int, list[str]]:
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
    elif last is not None and last.type in CALL_TYPES:
        parts.append(
            _("%(name)s: %(bid)s.") % {"name": names.get(last.seat, "?"), "bid": _bid_label(last)}
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
        "target": _once("format", lambda: format_label(table.format)),
    }


#: Belote's names for the combinations Open Blot's engine module finds.
BELOTE_KINDS = {"terz": "tierce", "fifty": "cinquante", "hundred": "cent", "four": "carre"}


def _declaration_kind(action: Any, variant: str) -> str:
    kind = Declaration(action.seat, mask_of(action.cards), 0).kind
    return BELOTE_KINDS.get(kind, kind) if variant == "belote" else kind


def _declaration_label(action: Any, variant: str = "open_blot") -> str:
    return kind_label(_declaration_kind(action, variant))


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


def _bids_so_far(obs: Observation, names: dict[int, str]) -> list[str]:
    out: list[str] = []
    if auction_draw.is_coinche(obs):
        return out  # the auction box shows the calls
    for a in obs.history:
        if a.type in ("pass", "take", "choose"):
            out.append(
                _("%(name)s: %(bid)s") % {"name": names.get(a.seat, "?"), "bid": _bid_label(a)}
            )
    return out


def _side_names(variant: str, names: dict[int, str]) -> list[str]:
    if variant == "belote":
        return [f"{names.get(0)} & {names.get(2)}", f"{names.get(1)} & {names.get(3)}"]
    return [names.get(0, "?"), names.get(1, "?")]


def _result_view(deal: Deal, names: dict[int, str], variant: str) -> dict[str, Any] | None:
    result = deal.result
    if not result:
        return None
    outcome_labels = {"made": _("made"), "inside": _("inside"), "litige": _("litige")}
    taker = names.get(result["taker"]) if result.get("taker") is not None else None
    sentences = {
        "made": _("%(name)s made the contract."),
        "inside": _("%(name)s went inside."),
        "litige": _("Litige: the points in dispute are held for the next deal."),
    }
    outcome = result.get("outcome") or ""
    side_names = _side_names(variant, names)
    capot = result.get("capot")
    capot_sentence = None
    if capot is not None:
        capot_sentence = (
            _("Capot: %(side)s won every trick.")
            if variant == "belote"
            else _("Kapout: %(side)s won every trick.")
        ) % {"side": side_names[capot]}
    summary = sentences[outcome] % {"name": taker} if outcome in sentences else ""
    contract = result.get("contract")
    multiplier_sentence = None
    if contract:
        # A coinche deal: the contract in words, made or failed, and its doubling.
        words = {
            "contract": contract_name(
                contract["value"], auction_draw.trump_code(contract["trump"])
            ),
            "name": names.get(contract["taker"], "?"),
        }
        summary = (
            _("%(name)s made the contract %(contract)s.")
            if outcome == "made"
            else _("%(name)s failed the contract %(contract)s.")
        ) % words
        if contract.get("multiplier", 1) >= 4:
            multiplier_sentence = _("Surcoinched: the points are multiplied by four.")
        elif contract.get("multiplier", 1) >= 2:
            multiplier_sentence = _("Coinched: the points are doubled.")
    belote = result.get("belote")
    # Belote is 20 for a side, or (all-trump) 20 per suit whose king and queen
    # one of its players held: the side of each, in a list.
    belote_sides = [] if belote is None else (belote if isinstance(belote, list) else [belote])
    belote_points = [20 * belote_sides.count(side) for side in (0, 1)] if belote_sides else None
    return {
        "summary": summary,
        "multiplier_sentence": multiplier_sentence,
        "belote_points": belote_points,
        "trump_sentence": _("No trump.")
        if result.get("trump") == "NT"
        else _("All trump.")
        if result.get("trump") == "AT"
        else _sentence(
            _("Trump: %(suit)s."),
            suit=format_html(
                '<span class="suit-{}">{}</span>',
                suit_color(result.get("trump")),
                trump_label(result.get("trump")),
            ),
        ),
        "capot_sentence": capot_sentence,
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
        "held_sentence": _sentence(
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


def seat_rating_labels(participants: list[Any]) -> dict[int, str]:
    """Each person's rating as shown beside their seat (``1500?``), by seat, from
    participants read with their ratings (``ratings.with_ratings``)."""
    return {p.index: label for p in participants if (label := ratings.label_of(p))}


def _unrated(match: Match) -> dict[str, str] | None:
    """Why a finished rated match moved no rating, if it moved none."""
    found = ratings.unrated_of(match)
    if found is None:
        return None
    return {
        "reason": found.reason,
        "sentence": unrated_label(found.reason, fairplay.DAILY_MEETINGS),
    }


def _rating_changes(match: Match) -> list[dict[str, Any]]:
    """Each person's rating change at the end of a rated match (read once per
    match end, shared by every viewpoint)."""
    changes = RatingChange.objects.filter(match=match).select_related("user").order_by("index")
    return [
        {
            "username": c.user.get_username(),
            "delta": c.delta,
            "after": c.label_after,
            "index": c.index,
        }
        for c in changes
    ]


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
