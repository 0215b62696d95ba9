"""What a table's viewers are sent: one frame per viewpoint per version.

A *viewpoint* is a seat (its player sees that seat's hand) or the spectators'
view (``None``). Every viewer of a viewpoint is sent the same bytes, so after a
change the table is loaded and rendered once per viewpoint — through
:mod:`games.live.render`, the one renderer — never once per viewer. Consumers
join their viewpoint's group and forward what arrives; the per-viewer work on a
move is sending.

Frames are rendered in the default language: a viewpoint group's name carries
the language code so that per-language frames can be added by rendering one
frame per (viewpoint, language present) without changing the consumers.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.conf import settings

from games.live import render
from games.models import Seat, Table

Viewpoint = int | None

#: Frames kept per process for joins and resends (table, viewpoint) -> (version, html).
CACHE_SIZE = 4096


def language() -> str:
    return settings.LANGUAGE_CODE


def viewpoint_group(table_id: int, seat: Viewpoint, lang: str | None = None) -> str:
    """The group of every connection that sees the table from ``seat``."""
    who = "watch" if seat is None else f"seat-{seat}"
    return f"table-{table_id}-{who}-{lang or language()}"


def viewpoints(table: Table) -> list[Viewpoint]:
    """The viewpoints someone may be looking from: the people's seats (a bot's seat
    has no viewer), and the spectators' view while anyone watches. A spectator
    who arrives before the count says so is brought up to date when the count
    changes (see ``TableConsumer.table_watchers``)."""
    people = Seat.objects.filter(table=table, bot_level__isnull=True).order_by("index")
    seats: list[Viewpoint] = list(people.values_list("index", flat=True))
    return [*seats, None] if table.spectator_count else seats


class FrameCache:
    """The newest frame rendered per (table, viewpoint) in this process.

    A joining viewer is sent the cached bytes when the table has not moved since
    they were drawn (one cheap version query instead of a render), so a hundred
    spectators arriving cost a hundred version reads and one render.
    """

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._frames: OrderedDict[tuple[int, Viewpoint], tuple[int, str]] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()  # filled from the loop and from worker threads

    def get(self, table_id: int, seat: Viewpoint, version: int) -> str | None:
        with self._lock:
            hit = self._frames.get((table_id, seat))
            if hit is None or hit[0] != version:
                return None
            self._frames.move_to_end((table_id, seat))
            return hit[1]

    def put(self, table_id: int, seat: Viewpoint, version: int, html: str) -> None:
        with self._lock:
            old = self._frames.get((table_id, seat))
            if old is not None and old[0] > version:
                return  # never replace a newer frame with an older one
            self._frames[(table_id, seat)] = (version, html)
            self._frames.move_to_end((table_id, seat))
            while len(self._frames) > self._size:
                self._frames.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._frames.clear()


cache = FrameCache()


def render_all(table_id: int) -> tuple[int, dict[Viewpoint, str]]:
    """The table's current version and one frame per viewpoint (rendered once each)."""
    table = Table.objects.get(pk=table_id)
    frames = render.render_viewpoints(table, viewpoints(table))
    for seat, html in frames.items():
        cache.put(table_id, seat, table.version, html)
    return table.version, frames


def frame_for(table_id: int, seat: Viewpoint) -> tuple[int, str]:
    """One viewer's current frame: from the cache when the table has not moved."""
    version = Table.objects.filter(pk=table_id).values_list("version", flat=True).get()
    html = cache.get(table_id, seat, version)
    if html is None:
        table = Table.objects.get(pk=table_id)
        version, html = table.version, render.render_table(table, seat, oob=True)
        cache.put(table_id, seat, version, html)
    return version, html


def messages(table_id: int, version: int, frames: dict[Viewpoint, str]) -> list[tuple[str, dict]]:
    """``(group, message)`` pairs that deliver ``frames`` to their viewpoints."""
    return [
        (viewpoint_group(table_id, seat), {"type": "table.frame", "version": version, "html": html})
        for seat, html in frames.items()
    ]


def watchers_fragment(count: int) -> str:
    """The spectator count alone, swapped in by id (no table re-render)."""
    return render.watchers_fragment(count)
