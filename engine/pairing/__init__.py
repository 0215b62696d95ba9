"""Play-now pairing: who waits in a pool, how wide a rating window each accepts,
and which groups of tickets become tables (pure logic; the site's pass in
``games.services.pools`` stores and seats what this decides)."""

from engine.pairing.pools import Group, Ticket, pair
from engine.pairing.window import rating_window

__all__ = ["Group", "Ticket", "pair", "rating_window"]
