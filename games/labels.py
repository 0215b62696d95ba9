"""How the site names things, in the reader's language: match formats, trumps,
Open Blot combinations, score markers, the table's tips, and each variant's URL slug.

Every word here goes through gettext: the names players use for the combinations
and markers differ per language (docs/languages.md). Forms, pages and the live
table all name things through this module, so each has one translation.
"""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from engine.cards import NO_TRUMP, TRUMP_CODES
from engine.errors import EngineError
from engine.match import MatchFormat
from engine.rules import BELOTE, OPEN_BLOT
from games.models import COINCHE, Participant, Player, Seat

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_COLORS = {"C": "black", "D": "red", "H": "red", "S": "black"}
MARKERS = {
    "void": gettext_lazy("void"),
    "inside": gettext_lazy("inside"),
    "capot": gettext_lazy("capot"),
    "kapout": gettext_lazy("kapout"),
    "litige": gettext_lazy("litige"),
    "belote": gettext_lazy("belote"),
    "blot": gettext_lazy("blot"),
    # A coinched or surcoinched deal's row (engine/match.py).
    "coinche": pgettext_lazy("score marker", "coinche"),
    "surcoinche": pgettext_lazy("score marker", "surcoinche"),
}


KINDS = {
    # Belote's announcements (docs/rules.md §7.1)
    "tierce": gettext_lazy("Tierce"),
    "cinquante": gettext_lazy("Cinquante"),
    "cent": gettext_lazy("Cent"),
    "carre": gettext_lazy("Carré"),
    # Open Blot's combinations
    "terz": gettext_lazy("Terz"),
    "fifty": gettext_lazy("Fifty"),
    "hundred": gettext_lazy("Hundred"),
    "four": gettext_lazy("Four of a kind"),
}


#: Short help at the table, for tooltips (title attributes): {% table_tip "announce" %}.
TABLE_TIPS = {
    "announce": gettext_lazy(
        "Announce your combinations now: only in the first trick, before you play your "
        "card. One that is not announced does not count."
    ),
    "announce_belote": gettext_lazy(
        "Announce a combination now, before your first card: its kind is said at once, "
        "and the cards of the side whose announcements count are shown after the first trick."
    ),
    "stacks": gettext_lazy(
        "Each stack is a face-down card under a face-up one. When the face-up card is "
        "played, the card under it is turned up."
    ),
    "proposed": gettext_lazy(
        "The proposed card: whoever takes it gets it, and its suit becomes trump."
    ),
}

#: URL slug → engine variant id (the How to play pages: /rules/<slug>/).
VARIANT_SLUGS = {"belote": BELOTE, "open-blot": OPEN_BLOT}


#: URL slug → game (Play-now pools, ratings, leaderboards: /leaderboard/<slug>/,
#: and the rules pages): the variants, and Coinche.
GAME_SLUGS = {**VARIANT_SLUGS, "coinche": COINCHE}


def game_slug_of(game: str) -> str:
    """The URL slug of a game (a variant's, or ``coinche``)."""
    return next(slug for slug, value in GAME_SLUGS.items() if value == game)


def slug_of(variant: str) -> str:
    """The URL slug of an engine variant id."""
    return next(slug for slug, value in VARIANT_SLUGS.items() if value == variant)


def table_tip(name: str) -> str:
    """A table tooltip in the reader's language (an unknown name is a bug: KeyError)."""
    return str(TABLE_TIPS[name])


def kind_label(value: str) -> str:
    """A combination's name (engine kinds: Belote's tierce, cinquante, cent,
    carre; Open Blot's terz, fifty, hundred, four)."""
    return str(KINDS.get(value, value))


def format_label(value: MatchFormat | str) -> str:
    """A match format as players say it ("First to 501 points", "Best of 3 deals");
    a stored format string that does not parse is shown as it is."""
    if isinstance(value, MatchFormat):
        fmt = value
    else:
        try:
            fmt = MatchFormat.parse(value)
        except EngineError:
            return value
    # ngettext: the noun after the number takes its plural form in each language
    # (Russian: "до 501 очка", "до 1000 очков").
    if fmt.kind == "first_to":
        return ngettext("First to %(n)s point", "First to %(n)s points", fmt.n) % {"n": fmt.n}
    if fmt.n == 1:
        return _("A single deal")  # "Best of 1 deals" read badly
    return ngettext("Best of %(n)s deal", "Best of %(n)s deals", fmt.n) % {"n": fmt.n}


def trump_label(value: str | None) -> str:
    if not value:
        return "-"
    if value == "NT":
        return _("No trump")
    if value == "AT":
        return _("All trump")
    return SUIT_SYMBOLS.get(value, value)


#: The value of a capot bid in the coinche auction (docs/rules.md §7.2).
CAPOT_BID = 250


def contract_name(value: int, trump: str) -> str:
    """A coinche bid or contract as players say it: "90 ♥", "Capot ♠", "120 All trump"."""
    if value == CAPOT_BID:
        return _("Capot %(trump)s") % {"trump": trump_label(trump)}
    # Translators: a bid of the coinche auction, its value then its trump ("90 ♥").
    return _("%(value)s %(trump)s") % {"value": value, "trump": trump_label(trump)}


def coinche_contract_label(value: int, trump: str, multiplier: int, taker: str | None) -> str:
    """The contract of a coinche deal in one sentence, with who holds it and how
    far it is doubled."""
    values = {"contract": contract_name(value, trump), "name": taker}
    if multiplier >= 4:
        return _("%(contract)s surcoinched, bid by %(name)s") % values
    if multiplier >= 2:
        return _("%(contract)s coinched, bid by %(name)s") % values
    return _("%(contract)s, bid by %(name)s") % values


def result_contract_label(result: dict | None) -> str:
    """A finished coinche deal's contract for a score table ("110 ♥ coinched");
    empty for a deal without one (classic bidding, a void deal)."""
    contract = (result or {}).get("contract")
    if not contract:
        return ""
    raw = contract["trump"]
    trump = TRUMP_CODES[raw] if isinstance(raw, int) else str(raw)
    name = contract_name(contract["value"], trump)
    multiplier = contract.get("multiplier", 1)
    if multiplier >= 4:
        return _("%(contract)s surcoinched") % {"contract": name}
    if multiplier >= 2:
        return _("%(contract)s coinched") % {"contract": name}
    return name


def result_announcements_label(result: dict | None) -> str:
    """The announcements a finished deal counted, in words ("Tierce 20, Carré 100")."""
    counted = [d for d in (result or {}).get("declarations") or [] if d.get("counted")]
    return ", ".join(
        _("%(kind)s %(points)s") % {"kind": kind_label(d["kind"]), "points": d["points"]}
        for d in counted
    )


def call_label(kind: str, value: int | None = None, trump: str | None = None) -> str:
    """One call of the coinche auction: a bid, Pass, Coinche or Surcoinche."""
    if kind == "bid" and value is not None and trump is not None:
        return contract_name(value, trump)
    # The calls are words of the auction, not the game's name ("Coinche").
    if kind == "coinche":
        return pgettext("auction call", "Coinche")
    if kind == "surcoinche":
        return pgettext("auction call", "Surcoinche")
    return _("Pass")


def bid_label(kind: str, trump: int | None = None) -> str:
    """A bid as the table names it: Pass, Take, No trump, Choose ♥."""
    if kind == "pass":
        return _("Pass")
    if kind == "take":
        return _("Take")
    if trump is None or trump == NO_TRUMP:
        return _("No trump")
    return _("Choose %(suit)s") % {"suit": trump_label(TRUMP_CODES[trump])}


def contract_label(trump: int | None, taker: str | None) -> str | None:
    """The contract as one label, the taker's name standing where no language
    declines it ("Trump No trump" read badly)."""
    if trump is None:
        return None
    if trump == NO_TRUMP:
        return _("No trump, taken by %(name)s") % {"name": taker}
    return _("Trump %(suit)s, taken by %(name)s") % {
        "suit": trump_label(TRUMP_CODES[trump]),
        "name": taker,
    }


def suit_color(value: str | None) -> str:
    return SUIT_COLORS.get((value or "")[-1:], "black")


def marker_label(value: str) -> str:
    return str(MARKERS.get(value, value))


#: The rule sets the site ships with (games/migrations/0001_initial.py), named in
#: the reader's language; a rule set an admin made keeps its own name.
BUILT_IN_RULE_SETS = {
    "Belote (standard)": gettext_lazy("Belote (standard)"),
    "Open Blot (standard)": gettext_lazy("Open Blot (standard)"),
    "Belote with announcements": gettext_lazy("Belote with announcements"),
    "Coinche": gettext_lazy("Coinche"),
}


def rule_set_label(name: str) -> str:
    return str(BUILT_IN_RULE_SETS.get(name, name))



def unrated_label(reason: str, meetings: int) -> str:
    """Why a rated match moved no rating, in a sentence (the reasons of
    ``games.models.UnratedMatch``; ``meetings``: the day's rated meetings that
    count between two opponents)."""
    if reason == "stand-ins":
        return _("This match was not rated: both sides left it to stand-ins.")
    if reason == "early":
        return _("This match was not rated: it ended before half a deal was played.")
    return ngettext(
        "This match was not rated: these opponents had already played %(count)s rated "
        "match against each other in the last 24 hours.",
        "This match was not rated: these opponents had already played %(count)s rated "
        "matches against each other in the last 24 hours.",
        meetings,
    ) % {"count": meetings}
def is_bot_account(who: object) -> bool:
    """Whether ``who`` (a user, a player profile, a match participant or a seat)
    is a bot account's."""
    if isinstance(who, Participant):
        return who.bot_account  # as it was when the match started
    if isinstance(who, Player):
        return who.is_bot
    if isinstance(who, Seat):
        who = who.user
    player = getattr(who, "player", None)
    return bool(player is not None and player.is_bot)


def bot_badge() -> SafeString:
    """The mark beside a bot account's name, wherever a name is shown."""
    return format_html(
        '<span class="bot-badge" data-bot-badge title="{}">{}</span>',
        _("A program plays this account through the Bot API."),
        _("BOT"),
    )
