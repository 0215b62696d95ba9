"""Play-now pairing: who waits in a pool, how wide a rating window each accepts,
which groups of tickets become tables, and what a waiting ticket is told (pure
logic; the site's pass in ``games.services.pools`` stores and seats what this
decides)."""

from engine.pairing.outlook import Outlook, meeting_in, outlook
from engine.pairing.pools import Group, Ticket, pair
from engine.pairing.window import rating_window, wait_for_gap

__all__ = [
    "Group",
    "Outlook",
    "Ticket",
    "meeting_in",
    "outlook",
    "pair",
    "rating_window",
    "wait_for_gap",
]
