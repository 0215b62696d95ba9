"""A tournament's life: draft -> registration -> running -> finished (or cancelled).

Every step is ``check_...`` (refuses with a ``ServiceError`` and changes nothing)
then ``do_...`` (makes the change), run by the public function in one
transaction holding the tournament's row lock. Each step re-reads the stored
state, so running it twice, or in two processes at once, changes nothing the
second time: the second caller waits for the lock, then finds the work done.

Progression keeps no state in memory. A finished match sets its tournament's
``wakeup_at`` (``games.services.matches.finish_deal``); the periodic runner
calls :func:`advance_due`, which records results, begins the next round or the
ready knockout matches (their tables created with the entrants seated, bots
filling bot places), and finishes the tournament when nothing is left to play.
Which pairings, bracket and standings are the right ones is decided by the pure
functions of ``engine.tournament``.

The modules, each importing only those before it: ``common`` (statuses, the row
lock, the version bump, the organiser check), ``entrants`` (entries, places,
names), ``standings`` (results, bracket, standings, places), ``rounds`` (pairing
rounds, opening their tables), ``progress`` (record, begin, finish),
``starting``, ``organiser`` (cancel, remove an entrant), ``running`` (the
periodic runner's calls), ``registration``, ``creating`` and ``viewing``. This
package re-exports the public names, so callers use
``games.services.tournaments`` alone; a test that replaces a function must
replace it in the module that calls it.
"""

from games.services.errors import ServiceError
from games.services.tournaments.common import DEFAULT_PARTNER_LEVEL, OPEN_STATUSES, Status
from games.services.tournaments.creating import create_tournament
from games.services.tournaments.organiser import (
    cancel,
    check_cancel,
    do_cancel,
    remove_entrant,
)
from games.services.tournaments.registration import (
    answer_invite,
    check_open,
    check_register,
    do_open,
    do_register,
    open_registration,
    register,
    withdraw,
)
from games.services.tournaments.running import advance, advance_due
from games.services.tournaments.standings import (
    entrant_ids,
    knockout_bracket,
    placings,
    results,
    standings,
    total_rounds,
)
from games.services.tournaments.starting import check_start, do_start, start
from games.services.tournaments.viewing import ReadyMatch, ready_matches, tournaments_of

__all__ = [
    "DEFAULT_PARTNER_LEVEL",
    "OPEN_STATUSES",
    "ReadyMatch",
    "ServiceError",
    "Status",
    "advance",
    "advance_due",
    "answer_invite",
    "cancel",
    "check_cancel",
    "check_open",
    "check_register",
    "check_start",
    "create_tournament",
    "do_cancel",
    "do_open",
    "do_register",
    "do_start",
    "entrant_ids",
    "knockout_bracket",
    "open_registration",
    "placings",
    "ready_matches",
    "register",
    "remove_entrant",
    "results",
    "standings",
    "start",
    "total_rounds",
    "tournaments_of",
    "withdraw",
]
