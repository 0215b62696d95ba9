"""One step of a running tournament's progression, shared by every caller
that may leave something to move on (the start, the periodic runner, removing an
entrant): record the results of the matches that finished, begin whatever is now
ready to play, and finish the tournament, with every entrant's place, once
nothing is left. It keeps nothing in memory and runs inside its caller's
transaction, under the tournament's row lock.
"""

from __future__ import annotations

from django.utils import timezone

from games.models import Entrant, Kind, Match, Pairing, Tournament
from games.models.tournaments import MAX_ENTRANTS
from games.services.tournaments.common import Status
from games.services.tournaments.rounds import _begin_next_round, _begin_ready_knockout_matches
from games.services.tournaments.standings import placings


def _progress(tournament: Tournament) -> bool:
    """Record finished matches, begin what is ready, finish when all is played."""
    changed = _record_results(tournament)
    # Forfeits decide matches as they are made, which may make more ready: go on
    # until nothing new begins (bounded, whatever the stored data says).
    for _attempt in range(2 * MAX_ENTRANTS):
        if tournament.kind == Kind.KNOCKOUT:
            began = _begin_ready_knockout_matches(tournament)
        else:
            began = _begin_next_round(tournament)
        if began is None:  # nothing is left to play
            _finish(tournament)
            return True
        if not began:
            break
        changed = True
    return changed


def _record_results(tournament: Tournament) -> bool:
    playing = list(
        tournament.pairings.filter(
            status=Pairing.Status.PLAYING, match__status=Match.Status.FINISHED
        ).select_related("match")
    )
    for pairing in playing:
        match = pairing.match
        assert match is not None
        last = match.score_rows.order_by("-number").first()
        totals = last.totals if last is not None else [0, 0]
        pairing.points_a, pairing.points_b = totals[0], totals[1]
        if match.winner is not None:
            pairing.winner_id = pairing.entrant_a_id if match.winner == 0 else pairing.entrant_b_id
        pairing.status = Pairing.Status.FINISHED
        pairing.save(update_fields=["points_a", "points_b", "winner", "status"])
    return bool(playing)


def _finish(tournament: Tournament) -> None:
    for entrant_id, place in placings(tournament).items():
        Entrant.objects.filter(pk=entrant_id).update(place=place)
    tournament.status = Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
