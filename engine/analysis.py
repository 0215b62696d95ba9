"""Honest values: what each legal action was worth to the side taking it, judged
only from what its seat could see then, the way the Hard bot judges.

For a step of a finished deal, the seat's observation is rebuilt
(:func:`engine.observe.observe`), deals consistent with it are drawn by the Hard
bot's own sampler (:class:`engine.ai.sample.Sampler`, imported, not copied), and
each legal action is applied on every sample and played out by the normal bot's
policy (bids: the rest of the bidding by the normal bot's rules, as the Hard bot
does). An action's honest value is the mean, at the end of the deal, of the
acting side's

- **card points** for a card (what it has won so far and the last trick's 10
  included): the unit of the exact values with all cards known
  (:func:`engine.solver.solve.card_values`), so a card's two values compare;
- **deal points** for a bid (contract scoring included): a failed contract
  scores nothing whatever its tricks held, and only deal points say so.

The loss of the chosen action is the best value minus its own; marks and
accuracy follow from the loss (thresholds below).

Declarations (Open Blot) are not valued: declaring never costs anything and every
bot declares all it can.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from engine.actions import BID, DECLARE, PLAY, Action
from engine.ai.hard import finish_bidding, start_sim
from engine.ai.sample import Sampler
from engine.ai.view import read
from engine.deal import BIDDING, Deal, new_deal
from engine.observe import observe
from engine.record import DealRecord, deal_from

#: Samples per decision: the same seed gives the same values.
SAMPLES = 200
#: Marks on the loss of the chosen action, in its unit (a deal holds 162 card
#: points; a trick's worth is typically 15-30).
INACCURACY, MISTAKE, BLUNDER = 10, 25, 50
#: A decision's accuracy is 100 % with no loss and falls linearly to 0 at this loss
#: (half of a deal's card points): 100 * max(0, 1 - loss / ACCURACY_SCALE).
ACCURACY_SCALE = 81


def mark(loss: float) -> str | None:
    """``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or ``None`` for a loss."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def accuracy(losses: list[float]) -> float | None:
    """Mean accuracy (0-100) over decisions with a choice; ``None`` without any."""
    if not losses:
        return None
    return sum(100 * max(0.0, 1 - loss / ACCURACY_SCALE) for loss in losses) / len(losses)


@dataclass(frozen=True)
class HonestStep:
    """One decision with a choice: ``values`` by the action's canonical key."""

    step: int
    seat: int
    chosen: str
    values: dict[str, float]

    @property
    def loss(self) -> float:
        return max(self.values.values()) - self.values[self.chosen]

    @property
    def mark(self) -> str | None:
        return mark(self.loss)


def action_key(action: Action) -> str:
    """A short key per action: the card (``"TH"``), ``"pass"``, ``"take"``,
    ``"choose:H"``, a coinche bid ``"bid:90:AT"``, ``"coinche"`` or ``"surcoinche"``
    — what the site's ``data-action-value`` carries."""
    d = action.to_dict()
    if action.type == PLAY:
        return str(d["card"])
    if action.type == "choose":
        return f"choose:{d['trump']}"
    if action.type == BID:
        return f"bid:{d['value']}:{d['trump']}"
    return action.type


#: The unit of each phase's honest values.
BID_UNIT, PLAY_UNIT = "deal points", "card points"


def honest_values(deal: Deal, rng: random.Random, samples: int = SAMPLES) -> dict[str, float]:
    """Each legal action's expected value for the side to act at the end of the
    deal (bids: deal points; cards: card points), from what the seat to act sees
    in ``deal`` (nothing else is read from it)."""
    seat = deal.to_act
    assert seat is not None
    obs = observe(deal, seat)
    side = seat % 2
    sampler = Sampler(obs, read(obs), obs.rules)
    options = [a for a in obs.legal if a.type != DECLARE]
    totals = dict.fromkeys((action_key(a) for a in options), 0.0)
    for _ in range(samples):
        if obs.phase == BIDDING:
            sampled = new_deal(obs.rules, obs.dealer, sampler.deck(rng))
            for a in obs.history:
                sampled.apply(a)
            for a in options:
                d = sampled.clone()
                d.apply(a)
                finish_bidding(d)
                sim = start_sim(d)
                if sim is not None:  # a void deal scores nothing
                    sim.playout()
                    totals[action_key(a)] += sim.deal_points()[side]
        else:
            base = sampler.sim(rng)
            for a in options:
                child = base.copy()
                child.play(a.card)  # type: ignore[arg-type]
                child.playout()
                totals[action_key(a)] += child.points[side]
    return {k: v / samples for k, v in totals.items()}


def honest_steps(
    record: DealRecord, seed: int = 0, samples: int = SAMPLES
) -> Iterator[HonestStep]:
    """Every decision of a finished record that had a choice (two or more legal
    bids or cards), with each option's honest value."""
    deal = deal_from(record)
    rng = random.Random(seed)
    for index, raw in enumerate(record.actions):
        action = Action.from_dict(raw)
        choices = [a for a in deal.legal_actions() if a.type != DECLARE]
        if action.type != DECLARE and len(choices) > 1:
            values = honest_values(deal, rng, samples)
            yield HonestStep(index, action.seat, action_key(action), values)
        deal.apply(action)


__all__ = [
    "BID_UNIT",
    "PLAY_UNIT",
    "HonestStep",
    "accuracy",
    "action_key",
    "honest_steps",
    "honest_values",
    "mark",
]
