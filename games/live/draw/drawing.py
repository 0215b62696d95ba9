"""The live table's templates (``templates/live/``), drawn with Jinja2.

A move draws its table once per viewpoint, and at 50 busy tables Django's
template language was a third of a move's CPU. Jinja compiles each
template to Python once per process and draws the same markup several times
faster. Only the table's frames use it; every other page stays in Django's
templates.

The templates keep Django's conventions so that a frame reads the same either
way: a word to translate is written ``{{ _("Your turn") }}`` (which
``makemessages`` finds in a template as it does in Django's), and a sentence
with placeholders ``{{ _("Deal %(n)s") % {"n": deal.number} }}``; the
translated sentence is trusted, what fills it is escaped. Plural sentences are
made in Python (``render`` and the builders of the table's parts), where
``ngettext`` is found. A missing name draws as nothing, as in Django, and numbers
are never localised.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from typing import Any

import jinja2
from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from markupsafe import Markup
from markupsafe import escape as markupsafe_escape

from games.labels import (
    bot_badge,
    kind_label,
    marker_label,
    suit_color,
    table_tip,
    trump_label,
)
from games.live.draw.cards import live_card

#: Where the live table's templates are (their names are ``live/...``).
FOLDER = settings.BASE_DIR / "templates"


def escape(value: Any) -> Markup:
    """Django's ``conditional_escape``, spelled as Django spells it (``&#x27;``,
    ``&quot;``) so that a frame's bytes do not depend on which engine drew it,
    but with markupsafe's C escaping: a frame escapes a hundred values, and
    Django's own escape was a fifth of drawing one."""
    if isinstance(value, Promise):
        value = str(value)
    if hasattr(value, "__html__"):
        return Markup(value.__html__())
    escaped = markupsafe_escape(value)
    if "&#3" in escaped:  # markupsafe's &#34; and &#39; (a literal "&#3" is &amp;#3)
        # (str's own replace: Markup's would escape the replacement)
        plain = str.replace(str.replace(escaped, "&#34;", "&quot;"), "&#39;", "&#x27;")
        escaped = Markup(plain)
    return escaped


class Trusted(Markup):
    """Markup that escapes what fills it as Django does (see :func:`escape`)."""

    __slots__ = ()

    @classmethod
    def escape(cls, s: Any) -> Trusted:
        return cls(escape(s))


def _join(items: Any, separator: str = "") -> Markup:
    return Markup(escape(separator).join(escape(i) for i in items))


Words = tuple[dict[str, str], dict[str, Trusted]]

#: While :func:`one_language` holds: its language's translations as looked up
#: (as text for Python, as markup for the templates).
_words: ContextVar[Words | None] = ContextVar("blot_live_words", default=None)

#: Each language's translations as looked up, kept for the life of the process:
#: the catalogues do not change while it runs, and the messages are the code's
#: own literals, so each language holds at most every message once.
_by_language: dict[str | None, Words] = {}


@contextmanager
def one_language() -> Iterator[None]:
    """While frames are drawn in one language (a move's viewpoints), each message
    is translated once per process: every frame says the same words, and a gettext
    lookup was a sixth of drawing one."""
    words = _by_language.setdefault(translation.get_language(), ({}, {}))
    token = _words.set(words)
    try:
        yield
    finally:
        _words.reset(token)


def text(message: str) -> str:
    """``gettext``, looked up once per message while :func:`one_language` holds."""
    words = _words.get()
    if words is None:
        return gettext(message)
    found = words[0].get(message)
    if found is None:
        found = words[0][message] = gettext(message)
    return found


def word(message: str) -> Trusted:
    """``gettext`` for a template: the translation is trusted markup (as Django's
    ``{% translate %}`` treats it), so ``%`` escapes only what fills it."""
    words = _words.get()
    if words is None:
        return Trusted(gettext(message))
    found = words[1].get(message)
    if found is None:
        found = words[1][message] = Trusted(text(message))
    return found


class _Environment(jinja2.Environment):
    def getattr(self, obj: Any, attribute: str) -> Any:
        # A frame's context is plain dicts: look a name up as a key first, not
        # after a failed attribute lookup (an exception per name drawn).
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


@cache
def environment() -> jinja2.Environment:
    env = _Environment(
        loader=jinja2.FileSystemLoader(FOLDER),
        autoescape=True,
        # Attributes of a missing value are missing too (Django's lenience),
        # rather than an error halfway through a frame.
        undefined=jinja2.ChainableUndefined,
        keep_trailing_newline=True,
        # Every value drawn is escaped here; Jinja then sees markup and keeps it.
        finalize=escape,
        auto_reload=settings.DEBUG,
    )
    env.globals.update(_=word, live_card=live_card, table_tip=table_tip, bot_badge=bot_badge)
    env.filters.update(
        join=_join, kind_label=kind_label, marker_label=marker_label, trump_label=trump_label,
        suit_color=suit_color,
    )
    return env


def draw(template: str, context: dict[str, Any]) -> SafeString:
    """``template`` (a name under ``templates/``, e.g. ``live/table.html``) drawn
    with ``context``; the markup is safe to put into another frame."""
    return mark_safe(environment().get_template(template).render(context))


class Parts:
    """The table's parts drawn from plain data (a seat, the part below the felt),
    kept across moves in this process: most of a move's parts are what the move
    before drew (the seats that neither moved nor are to move, the part below
    the felt until a bid or a trick changes it), and drawing the parts was about
    a seventh of drawing a move. A part is known by its template, its language
    and the ``repr`` of its context, so equal keys are equal drawings; a context
    whose ``repr`` names an object by its address is drawn and not kept (another
    object may later have that address). A part and its key are a few KB: the
    newest ``size`` are kept, about ten per busy table."""

    def __init__(self, size: int = 4096) -> None:
        self._kept: OrderedDict[tuple[str, str | None, str], SafeString] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()  # drawn in the loop's threads and the worker's

    def draw(self, template: str, context: dict[str, Any]) -> SafeString:
        said = repr(context)
        if " at 0x" in said:
            return draw(template, context)
        key = (template, translation.get_language(), said)
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
        drawn = draw(template, context)
        with self._lock:
            self._kept[key] = drawn
            while len(self._kept) > self._size:
                self._kept.popitem(last=False)
        return drawn

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


parts = Parts()
