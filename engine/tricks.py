"""The two questions every trick asks: which cards may be played, and who wins.

Both variants share these: Open Blot's duties are Belote's with no partner (a
two-card trick never holds a trump that was not led) and, in a no-trump game,
only the duty to follow suit. This is the one place that decides card legality.
"""

from __future__ import annotations

from engine.cards import ALL_TRUMP, BEATS, NO_TRUMP, STRENGTH, SUIT_MASKS, Mask


def legal_plays(hand: Mask, led: int, best: int, partner_winning: bool, trump: int) -> Mask:
    """The cards of ``hand`` that may be played.

    ``led`` is the first card of the trick and ``best`` the card currently winning
    it (both ``-1`` when the trick is empty); ``trump`` is a suit, ``NO_TRUMP`` or
    ``ALL_TRUMP``. No trump: follow suit if you can (docs/rules.md §3, §7.3). All
    trump: follow suit and beat the trick's best card of it if you can (D-23).
    """
    if led < 0:
        return hand
    led_suit = led >> 3
    follow = hand & SUIT_MASKS[led_suit]
    if trump == NO_TRUMP:
        return follow or hand
    if trump == ALL_TRUMP:
        # The best card is always of the led suit: nothing else can win a trick.
        return ((follow & BEATS[ALL_TRUMP][best]) or follow) if follow else hand
    if follow:
        if led_suit == trump:
            return (follow & BEATS[trump][best]) or follow
        return follow
    if partner_winning:
        return hand
    trumps = hand & SUIT_MASKS[trump]
    if not trumps:
        return hand
    if best >> 3 == trump:
        # Overtrump if possible, otherwise still a (lower) trump: D-3.
        return (trumps & BEATS[trump][best]) or trumps
    return trumps


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` takes the lead from ``best`` (the trick's winning card so far)."""
    strength = STRENGTH[trump]
    if card >> 3 == best >> 3:
        return strength[card] > strength[best]
    return card >> 3 == trump


def _takers(trump: int) -> tuple[int, ...]:
    """For each card ``best``, the mask of cards that :func:`beats` it."""
    return tuple(
        sum(1 << c for c in range(32) if beats(c, best, trump)) for best in range(32)
    )


#: ``TAKES[trump][best]``: the cards that take a trick's lead from ``best``; the
#: rule is :func:`beats`, tabulated once so the bots' playouts look it up.
TAKES: tuple[tuple[Mask, ...], ...] = tuple(_takers(t) for t in range(6))
