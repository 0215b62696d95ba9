"""Matches: folding deal results into a score table (docs/rules.md §4).

A match is played in a format — first to N points, or best of N deals — with the
deal passing to the next seat after every deal (void deals included). Litige
points held by a deal go to the side that wins the next deal that has a winner
(decision P-1 in docs/DECISIONS.md); points still held when the match ends are
not awarded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.errors import EngineError
from engine.result import INSIDE, LITIGE, DealResult
from engine.rules import BELOTE, SEATS, check_variant

FIRST_TO, BEST_OF = "first_to", "best_of"
FIRST_TO_TARGETS = (501, 1001, 2001)
BELOTE_DEFAULT_TARGET = 1000
BEST_OF_DEALS = (1, 3, 5)


@dataclass(frozen=True)
class MatchFormat:
    """``first_to`` a target, or ``best_of`` a number of deals."""

    kind: str
    n: int

    def __post_init__(self) -> None:
        if self.kind == FIRST_TO:
            if self.n not in (*FIRST_TO_TARGETS, BELOTE_DEFAULT_TARGET):
                raise EngineError(f"first_to target must be 501, 1001, 2001 or 1000, not {self.n}")
        elif self.kind == BEST_OF:
            if self.n not in BEST_OF_DEALS:
                raise EngineError(f"best_of must be 1, 3 or 5 deals, not {self.n}")
        else:
            raise EngineError(f"unknown match format {self.kind!r}")

    @staticmethod
    def parse(text: str) -> MatchFormat:
        """``"first_to:1001"`` or ``"best_of:3"``; raises ``EngineError``."""
        kind, _, number = str(text).partition(":")
        try:
            n = int(number)
        except ValueError:
            raise EngineError(f"not a match format: {text!r}") from None
        return MatchFormat(kind, n)

    def __str__(self) -> str:
        return f"{self.kind}:{self.n}"

    @property
    def label(self) -> str:
        if self.kind == FIRST_TO:
            return f"First to {self.n}"
        return f"Best of {self.n}"

    @staticmethod
    def default(variant: str) -> MatchFormat:
        check_variant(variant)
        if variant == BELOTE:
            return MatchFormat(FIRST_TO, BELOTE_DEFAULT_TARGET)
        return MatchFormat(FIRST_TO, 501)

    @staticmethod
    def choices(variant: str) -> list[MatchFormat]:
        check_variant(variant)
        targets = list(FIRST_TO_TARGETS)
        if variant == BELOTE:
            targets.insert(1, BELOTE_DEFAULT_TARGET)
        return [MatchFormat(FIRST_TO, t) for t in targets] + [
            MatchFormat(BEST_OF, n) for n in BEST_OF_DEALS
        ]


@dataclass(frozen=True)
class ScoreRow:
    """One line of the score table: one deal."""

    number: int
    dealer: int
    trump: str | None
    taker: int | None
    deal_points: tuple[int, int]
    #: Litige points from earlier deals added to a side this deal: (side, points).
    awarded: tuple[int, int] | None
    totals: tuple[int, int]
    #: Deals won so far per side (what counts in best-of formats).
    wins: tuple[int, int]
    markers: tuple[str, ...]
    #: Points held for the next deal's winner after this deal.
    held_points: int


@dataclass
class Match:
    variant: str
    format: MatchFormat
    first_dealer: int
    rows: list[ScoreRow] = field(default_factory=list)
    totals: list[int] = field(default_factory=lambda: [0, 0])
    wins: list[int] = field(default_factory=lambda: [0, 0])
    held: int = 0
    winner: int | None = None

    def __post_init__(self) -> None:
        check_variant(self.variant)
        if not 0 <= self.first_dealer < SEATS[self.variant]:
            raise EngineError(f"first dealer must be a seat of a {self.variant} table")

    @classmethod
    def resume(
        cls, variant: str, format: MatchFormat, first_dealer: int, rows: Sequence[ScoreRow]
    ) -> Match:
        """The match as its score table so far (``rows``, in order) leaves it: the
        same state as folding the deals behind those rows, without replaying them.
        Every total a deal changes is carried in its row, so the last row is the
        whole state."""
        match = cls(variant, format, first_dealer)
        if rows:
            last = rows[-1]
            match.rows = list(rows)
            match.totals = list(last.totals)
            match.wins = list(last.wins)
            match.held = last.held_points
            match.winner = match._decide()
        return match

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def next_dealer(self) -> int:
        return (self.first_dealer + len(self.rows)) % SEATS[self.variant]

    def add_deal(self, result: DealResult) -> ScoreRow:
        """Fold one finished deal (dealt by :attr:`next_dealer`) into the match."""
        if self.is_over:
            raise EngineError("the match is over")
        dealer = self.next_dealer
        markers: list[str] = []
        points = (0, 0)
        awarded = None
        if result.void:
            markers.append("void")
        else:
            assert result.deal_points is not None
            points = (result.deal_points[0], result.deal_points[1])
            for side in (0, 1):
                self.totals[side] += points[side]
            winner = result.winner
            if winner is not None and self.held:
                awarded = (winner, self.held)
                self.totals[winner] += self.held
                self.held = 0
            self.held += result.held_points or 0
            if winner is not None and result.outcome != LITIGE:
                self.wins[winner] += 1
            markers.extend(_markers(self.variant, result))
        row = ScoreRow(
            number=len(self.rows) + 1,
            dealer=dealer,
            trump=result.trump,
            taker=result.taker,
            deal_points=points,
            awarded=awarded,
            totals=(self.totals[0], self.totals[1]),
            wins=(self.wins[0], self.wins[1]),
            markers=tuple(markers),
            held_points=self.held,
        )
        self.rows.append(row)
        self.winner = self._decide()
        return row

    def _decide(self) -> int | None:
        if self.format.kind == BEST_OF:
            needed = self.format.n // 2 + 1
            for side in (0, 1):
                if self.wins[side] >= needed:
                    return side
            return None
        if max(self.totals) >= self.format.n and self.totals[0] != self.totals[1]:
            return 0 if self.totals[0] > self.totals[1] else 1
        return None


def _markers(variant: str, result: DealResult) -> list[str]:
    markers = []
    if result.outcome == INSIDE:
        markers.append("inside")
    if result.outcome == LITIGE:
        markers.append("litige")
    if result.capot is not None:
        markers.append("capot" if variant == BELOTE else "kapout")
    if result.belote is not None and result.belote != ():
        markers.append("belote" if variant == BELOTE else "blot")
    multiplier = (result.contract or {}).get("multiplier", 1)
    if multiplier > 1:
        markers.append("coinche" if multiplier == 2 else "surcoinche")
    return markers
