"""What a table's viewers are sent: one frame per viewpoint per version.

A *viewpoint* is a seat (its player sees that seat's hand) or the spectators'
view (``None``). Every viewer of a viewpoint is sent the same bytes, so after a
change the table is loaded and rendered once per viewpoint — through
:mod:`games.live.draw.render`, the one renderer — never once per viewer. Consumers
join their viewpoint's group and forward what arrives; the per-viewer work on a
move is sending.

Frames are rendered once per (viewpoint, language in use): each connection
notes its viewer's language for the table (:func:`note_language`, in the shared
cache, before it joins its group) and a viewpoint group's name carries the
language, so a Russian spectator and an English one each get their own bytes
while a hundred Russian spectators still share one render.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils import translation

from engine.deal import Deal as EngineDeal
from games.live.draw import render
from games.live.store import history
from games.models import Deal, Match, ScoreRow, Seat, Table
from games.runtime.sharedcache import shared

log = logging.getLogger(__name__)

Viewpoint = int | None

#: How long a table remembers that a language was used at it (a viewer refreshes
#: it on every connect; past it, a table no longer renders that language).
LANGUAGE_MEMORY_S = 24 * 3600

#: A process writes a table's language to the shared cache at most this often:
#: a storm of joins in one language is a write every few seconds, not one per
#: viewer; and a cache that lost the key (evicted, flushed) has it back at the
#: next join after that.
LANGUAGE_NOTE_EVERY_S = 5.0

#: Frames kept per process for joins and resends (table, viewpoint) -> (version, html).
CACHE_SIZE = 4096


def language() -> str:
    return settings.LANGUAGE_CODE


def viewpoint_group(
    table_id: int, seat: Viewpoint, lang: str | None = None, holder: int | None = None
) -> str:
    """The group of every connection that sees the table from ``seat``, held by
    the user ``holder``. A seat's group names its holder: a frame drawn while
    someone holds the seat goes to their connections only, so a connection of
    the seat's previous holder never hears it, whether or not it has been
    moved yet."""
    who = "watch" if seat is None else f"seat-{seat}-user-{holder}"
    return f"table-{table_id}-{who}-{lang or language()}"


def person_group(table_id: int, user_id: int) -> str:
    """Every connection of one person at one table: told when their place at
    the table changes (``games.live.deliver.notify``)."""
    return f"table-{table_id}-user-{user_id}"


class NotHolder(Exception):
    """The seat a connection asked to see is no longer its user's."""


def _language_key(table_id: int, lang: str) -> str:
    return f"blot:live-language:{table_id}:{lang}"


#: (table, language) -> until when this process need not write it again, for the
#: shared cache client in ``_noted_in`` (another cache, as in tests: all again).
_noted: dict[tuple[int, str], float] = {}
_noted_in: list[object] = [None]


def note_language(table_id: int, lang: str) -> None:
    """A viewer of ``table_id`` reads ``lang``: frames are rendered in it from now on."""
    now = time.monotonic()
    client = shared()
    if _noted_in[0] is not client:
        _noted.clear()
        _noted_in[0] = client
    if _noted.get((table_id, lang), 0.0) > now:
        return  # written by this process a moment ago
    try:
        client.set(_language_key(table_id, lang), True, LANGUAGE_MEMORY_S)
    except Exception:  # the cache is away: the viewer still gets frames on resends
        log.warning("table %s: could not note the language %s", table_id, lang)
        return
    if len(_noted) >= CACHE_SIZE:
        _noted.clear()
    _noted[(table_id, lang)] = now + LANGUAGE_NOTE_EVERY_S


def forget_noted_languages() -> None:
    """Write languages afresh at the next joins: the shared cache may have lost
    them (Redis restarted)."""
    _noted.clear()


def languages_in_use(table_id: int) -> list[str]:
    """The languages someone has viewed the table in (the default language if none)."""
    codes = [code for code, _name in settings.LANGUAGES]
    try:
        found = shared().get_many([_language_key(table_id, code) for code in codes])
    except Exception:  # better every language than a viewer left behind
        log.warning("table %s: could not read its languages; rendering all", table_id)
        return codes
    used = [code for code in codes if _language_key(table_id, code) in found]
    return used or [language()]


def viewpoints(table: Table, rows: list[Seat]) -> list[Viewpoint]:
    """The viewpoints someone may be looking from: the people's seats (a bot's seat
    or an open one has no viewer), and the spectators' view while anyone
    watches. A spectator who arrives before the count says so is brought up to
    date when the count changes (see ``TableConsumer.table_watchers``)."""
    seats: list[Viewpoint] = list(
        sorted(row.index for row in rows if row.bot_level is None and row.user_id is not None)
    )
    return [*seats, None] if table.spectator_count else seats


class FrameCache:
    """The newest frame rendered per (table, viewpoint) in this process.

    A joining viewer is sent the cached bytes when the table has not moved since
    they were drawn (one cheap version query instead of a render), so a hundred
    spectators arriving cost a hundred version reads and one render.
    """

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._frames: OrderedDict[tuple[int, Viewpoint, str], tuple[int, str]] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()  # filled from the loop and from worker threads

    def get(
        self, table_id: int, seat: Viewpoint, version: int, lang: str | None = None
    ) -> str | None:
        key = (table_id, seat, lang or language())
        with self._lock:
            hit = self._frames.get(key)
            if hit is None or hit[0] != version:
                return None
            self._frames.move_to_end(key)
            return hit[1]

    def put(
        self, table_id: int, seat: Viewpoint, version: int, html: str, lang: str | None = None
    ) -> None:
        key = (table_id, seat, lang or language())
        with self._lock:
            old = self._frames.get(key)
            if old is not None and old[0] > version:
                return  # never replace a newer frame with an older one
            self._frames[key] = (version, html)
            self._frames.move_to_end(key)
            while len(self._frames) > self._size:
                self._frames.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._frames.clear()


cache = FrameCache()


class Frames(dict[tuple[Viewpoint, str], str]):
    """One version's frames by (viewpoint, language), and who held each seat
    when they were drawn: a seat's frame is sent to its holder's group only."""

    def __init__(self, holders: dict[int, int | None] | None = None) -> None:
        super().__init__()
        self.holders: dict[int, int | None] = dict(holders or {})


@dataclass(frozen=True)
class Known:
    """A table as a move just stored it, all in memory: the mover's transaction
    read and wrote these rows under the table's lock, so drawing them after the
    commit needs no query."""

    table: Table
    seats: list[Seat]
    match: Match
    deal: Deal  # the deal the move was made in, as it was read (open)
    engine: EngineDeal  # that deal, rebuilt and with the move applied
    #: When the move ended the deal: the score row its closing wrote, with the
    #: deal (finished, its result) and the match (finished too, perhaps) as written.
    closed: ScoreRow | None = None


def _known_shared(known: Known) -> dict[str, Any]:
    loaded = _with_history(known.match, known.deal)
    closed = known.closed
    if closed is not None:  # drawn as the deal's closing wrote it, deal, score row and match
        loaded.update(
            match=closed.match,
            deals=[*loaded["deals"][:-1], closed.deal],
            rows=[*loaded["rows"], closed],
        )
    return {**loaded, "engine": known.engine}


def _stored_shared(table: Table) -> dict[str, Any]:
    """What every viewpoint of a table read from the database shares, with the
    open deal's history from :data:`history.cache`: a join or a resend reads the
    match and its open deal, and fills the cache the deal's moves in this
    process then draw from (so the first move of a deal that someone joined
    here reads no history, and neither does the next join)."""
    match = table.current_match()
    if match is None:
        return {"match": None}
    deal = match.deals.filter(status=Deal.Status.PLAYING).order_by("-number").first()
    if deal is None:  # between deals or over: what is shown is read as it is
        return {"match": match}
    return _with_history(match, deal)


def _with_history(match: Match, open_deal: Deal) -> dict[str, Any]:
    past = history.cache.for_open_deal(match, open_deal)
    return {
        "match": match,
        "participants": past.participants,
        "deals": [*past.finished, open_deal],
        "rows": past.rows,
        "seat_ratings": past.seat_ratings,
    }


def render_all(table_id: int, known: Known | None = None) -> tuple[int, Frames]:
    """The table's current version and one frame per (viewpoint, language in use),
    each rendered once. With ``known`` (a move's own rows) nothing is read from
    the database but what a deal's history adds, once per deal per process."""
    if known is None:
        table = Table.objects.get(pk=table_id)
        rows = list(table.seats.order_by("index"))  # read once: viewpoints, and drawn at each seat
        loaded = _stored_shared(table)
    else:
        table, rows, loaded = known.table, known.seats, _known_shared(known)
    seats = viewpoints(table, rows)
    frames = Frames({row.index: row.user_id for row in rows})
    for lang in languages_in_use(table_id):
        with translation.override(lang):
            shared = {**loaded, "seats": {row.index: row for row in rows}}
            for seat, html in render.render_viewpoints(table, seats, shared).items():
                frames[(seat, lang)] = html
                cache.put(table_id, seat, table.version, html, lang)
    return table.version, frames


#: Reads of a table that keeps moving between its version and its rows before
#: :func:`frame_for` gives up (each try is two short queries).
FRAME_TRIES = 3


def frame_for(
    table_id: int, seat: Viewpoint, lang: str | None = None, holder: int | None = None
) -> tuple[int, str]:
    """One viewer's current frame: from the cache when the table has not moved.
    A seat's frame is drawn only for its holder, the user ``holder``: raises
    :class:`NotHolder` when the seat is not theirs at the version drawn. Every
    change of a seat's holder comes with a new version, so the holder read with
    a version is the holder of everything drawn at that version."""
    lang = lang or language()
    for _try in range(FRAME_TRIES):
        version = _version_if_held(table_id, seat, holder)
        html = cache.get(table_id, seat, version, lang)
        if html is not None:
            return version, html
        table = Table.objects.get(pk=table_id)
        if table.version != version and seat is not None:
            continue  # it moved between the two reads: read its holder again
        with translation.override(lang):
            html = render.render_viewpoints(table, [seat], _stored_shared(table))[seat]
        cache.put(table_id, seat, table.version, html, lang)
        return table.version, html
    raise NotHolder(f"table {table_id} kept moving while seat {seat} was read")


def _version_if_held(table_id: int, seat: Viewpoint, holder: int | None) -> int:
    """The table's version, if ``seat`` (None: the spectators' view) is
    ``holder``'s; every change of a seat's holder comes with a new version."""
    if seat is None:
        return Table.objects.filter(pk=table_id).values_list("version", flat=True).get()
    found = (
        Seat.objects.filter(table_id=table_id, index=seat)
        .values_list("user_id", "table__version")
        .first()
    )
    if found is None or found[0] is None or found[0] != holder:
        raise NotHolder(f"table {table_id}, seat {seat}")
    return int(found[1])


def messages(table_id: int, version: int, frames: Frames) -> list[tuple[str, dict]]:
    """``(group, message)`` pairs that deliver ``frames`` to their viewpoints."""
    out = []
    for (seat, lang), html in frames.items():
        holder = None if seat is None else frames.holders.get(seat)
        group = viewpoint_group(table_id, seat, lang, holder)
        out.append((group, frame_message(group, version, html)))
    return out


def frame_message(group: str, version: int, html: str) -> dict[str, Any]:
    """A frame as published to ``group``. It names its group: every spectators'
    group of a server process has one member, which hands the frame on to that
    process's spectators of the table (``games.live.deliver.spectators``)."""
    return {"type": "table.frame", "version": version, "html": html, "group": group}


def watchers_group(table_id: int, lang: str) -> str:
    """The table's players who read ``lang``: they hear the watcher count here
    (it is words). Its spectators hear it in their own group, through their
    server process's relay (``games.live.deliver.spectators``)."""
    return f"table-{table_id}-all-{lang}"


def watchers_fragment(count: int, lang: str | None = None) -> str:
    """The spectator count alone, swapped in by id (no table re-render)."""
    with translation.override(lang or language()):
        return render.watchers_fragment(count)
