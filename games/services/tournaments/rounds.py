"""Pairing the rounds and opening their tables. A knockout opens each bracket
match as soon as both its entrants are known; Swiss and round robin pair the
whole next round once the current one is over. Each pairing is stored with its
table created, the entrants (and their partners, or bots in the empty places)
seated, its match started and its players told their match is ready; a pairing
with a removed entrant is a forfeit with no table.
"""

from __future__ import annotations

from engine import tournament as pure
from engine.rules import SEATS
from games.models import Entrant, Kind, Match, Pairing, Seat, Table, Tournament, TournamentRound
from games.services.matches import announce_tournament_match, start_match
from games.services.tables import new_table
from games.services.tournaments.common import DEFAULT_PARTNER_LEVEL
from games.services.tournaments.standings import (
    entrant_ids,
    knockout_bracket,
    results,
    total_rounds,
)


def _begin_ready_knockout_matches(tournament: Tournament) -> bool | None:
    """Open every bracket match whose two entrants are known. None: the final
    (and the third-place match) is decided."""
    rounds = knockout_bracket(tournament)
    last = rounds[-1]
    if all(m.winner is not None for m in last):
        return None
    stored = set(tournament.pairings.values_list("round", "index"))
    began = False
    for match in (m for r in rounds for m in r):
        if match.ready and match.key not in stored:
            TournamentRound.objects.get_or_create(tournament=tournament, number=match.round)
            assert match.a is not None and match.b is not None
            _begin_pairing(
                tournament, match.round, match.index, match.a, match.b, match.third_place
            )
            began = True
    return began


def _begin_next_round(tournament: Tournament) -> bool | None:
    """Swiss / round robin: begin the next round once the current one is over.
    None: the last round is over."""
    if tournament.pairings.filter(status=Pairing.Status.PLAYING).exists():
        return False
    played = tournament.round_set.count()
    entrants = entrant_ids(tournament)
    if played >= total_rounds(tournament, len(entrants)):
        return None
    number = played + 1
    if tournament.kind == Kind.SWISS:
        pairs = pure.swiss_pairings(entrants, results(tournament))
    else:
        pairs = pure.round_robin_round(entrants, number)
    TournamentRound.objects.create(tournament=tournament, number=number)
    for index, pair in enumerate(pairs, start=1):
        if pair.b is None:
            Pairing.objects.create(
                tournament=tournament,
                round=number,
                index=index,
                entrant_a_id=pair.a,
                status=Pairing.Status.FINISHED,
                winner_id=pair.a,
            )
        else:
            _begin_pairing(tournament, number, index, pair.a, pair.b, False)
    return True


def _begin_pairing(
    tournament: Tournament, round_number: int, index: int, a_id: int, b_id: int, third: bool
) -> Pairing:
    """Store the pairing and open its table with both entrants seated; a removed
    entrant's match is a forfeit instead (no table)."""
    a, b = Entrant.objects.get(pk=a_id), Entrant.objects.get(pk=b_id)
    pairing = Pairing(
        tournament=tournament,
        round=round_number,
        index=index,
        entrant_a=a,
        entrant_b=b,
        third_place=third,
    )
    if a.removed or b.removed:
        pairing.forfeit = True
        pairing.status = Pairing.Status.FINISHED
        # Both gone: a knockout still needs someone to go through; the higher seed does.
        both_gone = a.removed and b.removed
        if not both_gone or tournament.kind == Kind.KNOCKOUT:
            pairing.winner = b if a.removed and not both_gone else a
        pairing.save()
        return pairing
    table = _open_table(tournament, a, b)
    pairing.table = table
    pairing.match = table.current_match()
    pairing.save()
    announce_tournament_match(table.pk)
    return pairing


def _open_table(tournament: Tournament, a: Entrant, b: Entrant) -> Table:
    table = new_table(
        tournament,
        tournament.format,
        created_by=tournament.created_by,
        turn_seconds=tournament.turn_seconds,
        disconnect_grace_seconds=tournament.disconnect_grace_seconds,
        bot_delay_ms=tournament.bot_delay_ms,
    )
    table.save()
    # Seats alternate between the sides: entrant a holds the even seats (side 0).
    per_side = SEATS[tournament.variant] // 2
    for member in range(per_side):
        for side, entrant in enumerate((a, b)):
            user_id, level = _member(tournament, entrant, member)
            Seat.objects.create(
                table=table, index=member * 2 + side, user_id=user_id, bot_level=level
            )
    if tournament.rated and not table.seats.filter(bot_level__isnull=False).exists():
        table.rated = True  # rated play is people only: a bot's match is not rated
        table.save(update_fields=["rated"])
    match = start_match(table)
    Match.objects.filter(pk=match.pk).update(tournament=tournament)
    _name_bots(match, a, b)
    return table


def _name_bots(match: Match, a: Entrant, b: Entrant) -> None:
    """A bot entrant is the same bot, with the same name, on its table as in the
    bracket and the standings (not "Bot <seat>"); a bot that only partners an
    entrant is a partner bot, numbered like no entrant."""
    for participant in match.participants.filter(bot_level__isnull=False):
        entrant = (a, b)[participant.index % 2]
        entrant_bot = entrant.is_bot and participant.index < 2 and entrant.seed
        participant.bot_number = entrant.seed if entrant_bot else 0
        participant.name = participant.shown_name
        participant.save(update_fields=["bot_number", "name"])


def _member(tournament: Tournament, entrant: Entrant, member: int) -> tuple[int | None, str | None]:
    """Who sits in the entrant's ``member``-th seat: a user id or a bot level."""
    level = entrant.bot_level or tournament.fill_with_bots or DEFAULT_PARTNER_LEVEL
    if member == 0:
        return (entrant.user_id, None) if entrant.user_id else (None, level)
    if entrant.partner_id and entrant.partner_status == Entrant.PartnerStatus.ACCEPTED:
        return entrant.partner_id, None
    return None, level
