"""Fair shuffles and the commitment that proves the deck was fixed in advance.

Real deals shuffle with the operating system's cryptographic source. At deal
start the site publishes ``commit(deck).digest`` — SHA-256 over a random salt and
the deck order — and keeps the salt secret; the record of the finished deal
carries the salt, so anyone can recompute the digest (``python -m engine verify``).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from dataclasses import dataclass

from engine.cards import CODES, Card

_SYSTEM_RANDOM = random.SystemRandom()


def shuffled_deck(rng: random.Random | None = None) -> list[Card]:
    """The 32 cards in random order: the OS source unless a (test) ``rng`` is given."""
    deck = list(range(32))
    (rng or _SYSTEM_RANDOM).shuffle(deck)
    return deck


@dataclass(frozen=True)
class Commitment:
    salt: str
    digest: str


def digest(deck: list[Card] | list[str], salt: str) -> str:
    """SHA-256 hex of ``"<salt>:<card codes joined by spaces>"``."""
    codes = [c if isinstance(c, str) else CODES[c] for c in deck]
    return hashlib.sha256(f"{salt}:{' '.join(codes)}".encode()).hexdigest()


def commit(deck: list[Card] | list[str]) -> Commitment:
    salt = secrets.token_hex(16)
    return Commitment(salt, digest(deck, salt))


def verify(deck: list[Card] | list[str], salt: str, expected: str) -> bool:
    return hmac.compare_digest(digest(deck, salt), str(expected))
