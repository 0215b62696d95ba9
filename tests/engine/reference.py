"""A readable transcription of docs/rules.md's play duties and trick rules, on card codes.

The engine decides legality on 32-bit masks (engine/tricks.py); this module is the
slow, literal version written straight from the rule book, used only by the
property tests to show that the fast path agrees with it on many random deals.
"""

from __future__ import annotations

TRUMP_ORDER = "J9ATKQ87"  # strongest first (docs/rules.md §1)
PLAIN_ORDER = "ATKQJ987"
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
NO_TRUMP_POINTS = {**PLAIN_POINTS, "A": 19}
ALL_TRUMP_POINTS = {"J": 14, "9": 9, "A": 6, "T": 5, "K": 3, "Q": 1, "8": 0, "7": 0}


def is_trump(card: str, trump: str) -> bool:
    return trump not in ("NT", "AT") and card[1] == trump


def trick_winner(cards: list[str], trump: str) -> int:
    """Index in ``cards`` of the winning card: highest trump, else highest of the led suit
    (in all trump: the led suit's best card in the trump order, §7.3)."""
    if trump == "AT":
        led = cards[0][1]
        followers = [i for i, c in enumerate(cards) if c[1] == led]
        return min(followers, key=lambda i: TRUMP_ORDER.index(cards[i][0]))
    trumps = [i for i, c in enumerate(cards) if is_trump(c, trump)]
    if trumps:
        return min(trumps, key=lambda i: TRUMP_ORDER.index(cards[i][0]))
    led = cards[0][1]
    followers = [i for i, c in enumerate(cards) if c[1] == led]
    return min(followers, key=lambda i: PLAIN_ORDER.index(cards[i][0]))


def card_points(card: str, trump: str) -> int:
    if trump == "AT":
        return ALL_TRUMP_POINTS[card[0]]
    if trump == "NT":
        return NO_TRUMP_POINTS[card[0]]
    return (TRUMP_POINTS if card[1] == trump else PLAIN_POINTS)[card[0]]


def stronger_trumps(cards: list[str], than: str) -> list[str]:
    return [c for c in cards if TRUMP_ORDER.index(c[0]) < TRUMP_ORDER.index(than[0])]


def legal_cards(hand: list[str], trick: list[str], trump: str, partner_winning: bool) -> set[str]:
    """docs/rules.md §2 "Play" duties 1-4 (Belote) and §3 duties (Open Blot: two seats, so no
    partner; in a no-trump game only following suit applies)."""
    if not trick:
        return set(hand)
    led = trick[0][1]
    same_suit = [c for c in hand if c[1] == led]
    if trump == "AT":  # follow, and beat the best card of the led suit if you can (D-23)
        if not same_suit:
            return set(hand)
        best = trick[trick_winner(trick, trump)]
        return set(stronger_trumps(same_suit, best) or same_suit)
    if same_suit:
        if trump != "NT" and led == trump:
            best = trick[trick_winner(trick, trump)]
            higher = stronger_trumps(same_suit, best)
            return set(higher or same_suit)
        return set(same_suit)
    if trump == "NT":
        return set(hand)
    if partner_winning:
        return set(hand)
    trumps = [c for c in hand if c[1] == trump]
    if not trumps:
        return set(hand)
    trumped = [c for c in trick if c[1] == trump]
    if trumped:
        best = trick[trick_winner(trick, trump)]
        return set(stronger_trumps(trumps, best) or trumps)
    return set(trumps)
