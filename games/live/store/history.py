"""What a frame shows that cannot change while a deal is open, kept per process.

A table's frame draws the match's participants, its finished deals (the last
one's result), its score rows and each person's rating. None of them changes
while a deal is being played: participants are written once when the match
starts, a finished deal, with its score row, is only ever added when the open
deal finishes — which opens a new deal (or ends the match), so a new key — and
a rating moves only when a rated match ends (this one's end shows the new
ratings from its rating changes, read then anyway). Participants are read with
their ratings in one query. Keyed
by the open deal, they are read once per deal per process instead of on every
move.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from games.models import Deal, Match, Participant, ScoreRow
from games.services import ratings

#: Open deals remembered per process (a few per busy table is plenty).
SIZE = 1024


@dataclass(frozen=True)
class History:
    """A match as it stood when its open deal began."""

    participants: list[Participant]
    finished: list[Deal]  # in order, action logs not loaded
    rows: list[ScoreRow]
    #: Each person's rating as shown beside their seat (``1500?``), by seat.
    seat_ratings: dict[int, str]


class HistoryCache:
    def __init__(self, size: int = SIZE) -> None:
        self._kept: OrderedDict[tuple[int, int], History] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def for_open_deal(self, match: Match, deal: Deal) -> History:
        """The history behind ``deal``, which must be the match's open deal."""
        assert deal.status == Deal.Status.PLAYING, "only an open deal fixes the history"
        key = (match.pk, deal.pk)
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None:
                self._kept.move_to_end(key)
                return kept
        participants = list(ratings.with_ratings(match.participants.all(), match.game))
        kept = History(
            participants=participants,
            seat_ratings={
                p.index: label for p in participants if (label := ratings.label_of(p))
            },
            finished=list(
                match.deals.filter(status=Deal.Status.FINISHED, number__lt=deal.number)
                .order_by("number")
                .defer("actions")
            ),
            rows=list(match.score_rows.order_by("number")),
        )
        with self._lock:
            self._kept[key] = kept
            while len(self._kept) > self._size:
                self._kept.popitem(last=False)
        return kept

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


cache = HistoryCache()
