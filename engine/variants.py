"""Which deal class plays which variant (see :func:`engine.deal.new_deal`)."""

from __future__ import annotations

from engine.belote import BeloteDeal
from engine.deal import Deal
from engine.open_blot import OpenBlotDeal
from engine.rules import BELOTE, OPEN_BLOT

DEAL_CLASSES: dict[str, type[Deal]] = {BELOTE: BeloteDeal, OPEN_BLOT: OpenBlotDeal}
