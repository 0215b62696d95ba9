"""Rule sets: the docs/rules.md §6 settings of a variant, typed and validated.

A rule set is built from the variant's defaults plus named overrides. Unknown
names and values outside the allowed range are refused with a message that names
the setting, so the admin can show it as a form error and a deal record with a
bad ``rules`` object is rejected before anything is dealt.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from engine.errors import RuleSetError

BELOTE = "belote"
OPEN_BLOT = "open_blot"
VARIANTS = (BELOTE, OPEN_BLOT)
SEATS = {BELOTE: 4, OPEN_BLOT: 2}

LITIGE_POLICIES = ("hold_for_next", "split", "takers_lose")


@dataclass(frozen=True)
class Setting:
    """One named setting: its default and what it may be set to."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    #: A switch this version keeps off (none at present; the site still asks).
    locked: bool = False

    def check(self, value: Any) -> Any:
        """Return ``value`` if allowed, else raise ``RuleSetError`` saying why."""
        if self.locked and value is not False:
            raise RuleSetError(
                f"{self.name} is switched off in this version and cannot be turned on", self.name
            )
        if self.choices is not None:
            if value not in self.choices or not isinstance(value, type(self.default)):
                allowed = ", ".join(repr(c) for c in self.choices)
                raise RuleSetError(f"{self.name} must be one of {allowed}", self.name)
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleSetError(f"{self.name} must be a whole number", self.name)
        assert self.minimum is not None and self.maximum is not None
        if not self.minimum <= value <= self.maximum:
            raise RuleSetError(
                f"{self.name} must be between {self.minimum} and {self.maximum}", self.name
            )
        return value

    @property
    def allowed(self) -> str:
        """A short description of the allowed values, for forms and docs."""
        if self.choices is not None:
            return " / ".join(str(c) for c in self.choices)
        return f"{self.minimum} to {self.maximum}"


def _switch(name: str, what: str) -> Setting:
    return Setting(name, False, what, choices=(False, True))


#: Switches that only make sense with another one on (docs/rules.md §6).
REQUIRES = MappingProxyType({"all_trump": "coinche", "no_trump": "coinche"})


SETTINGS: Mapping[str, tuple[Setting, ...]] = MappingProxyType(
    {
        BELOTE: (
            Setting(
                "capot_points", 252, "Points for a side that wins all 8 tricks",
                minimum=162, maximum=500,
            ),
            Setting(
                "litige", "hold_for_next", "What happens when both sides have equal points",
                choices=LITIGE_POLICIES,
            ),
            _switch("announcements", "Tierce, cinquante, cent and carré (docs/rules.md §7.1)"),
            _switch("coinche", "Coinche: an auction of contracts, coinche and surcoinche "
                    "(docs/rules.md §7.2)"),
            _switch("all_trump", "All-trump contracts, with coinche only (docs/rules.md §7.3)"),
            _switch("no_trump", "No-trump contracts, with coinche only (docs/rules.md §7.3)"),
        ),
        OPEN_BLOT: (
            Setting(
                "kapout_points", 210,
                "Points instead of 162 when the opponent's tricks hold no card points",
                minimum=162, maximum=500,
            ),
        ),
    }
)


def check_variant(variant: Any) -> str:
    if variant not in VARIANTS:
        raise RuleSetError(f"unknown variant {variant!r} (expected one of {', '.join(VARIANTS)})")
    return str(variant)


@dataclass(frozen=True)
class RuleSet:
    """The settings of one variant. Build it with :meth:`build`, never by hand."""

    variant: str
    capot_points: int = 252
    litige: str = "hold_for_next"
    kapout_points: int = 210
    announcements: bool = False
    coinche: bool = False
    all_trump: bool = False
    no_trump: bool = False

    @classmethod
    def build(cls, variant: str, overrides: Mapping[str, Any] | None = None) -> RuleSet:
        """Defaults of ``variant`` with ``overrides`` applied; raises ``RuleSetError``."""
        check_variant(variant)
        if overrides is None:
            overrides = {}
        if not isinstance(overrides, Mapping):
            raise RuleSetError("rules must be an object of setting names and values")
        known = {s.name: s for s in SETTINGS[variant]}
        values: dict[str, Any] = {}
        for name, value in overrides.items():
            setting = known.get(name)
            if setting is None:
                raise RuleSetError(f"unknown setting {name!r} for {variant}", str(name))
            values[name] = setting.check(value)
        for name, needed in REQUIRES.items():
            if values.get(name) and not values.get(needed):
                raise RuleSetError(f"{name} needs {needed}: true", name)
        return cls(variant=variant, **values)

    @classmethod
    def default(cls, variant: str) -> RuleSet:
        return cls.build(variant)

    @property
    def seats(self) -> int:
        return SEATS[self.variant]

    def as_dict(self) -> dict[str, Any]:
        """Every setting of the variant with its value."""
        return {s.name: self._value(s) for s in SETTINGS[self.variant]}

    def overrides(self) -> dict[str, Any]:
        """Only the settings that differ from the defaults: what a record stores."""
        return {
            s.name: self._value(s)
            for s in SETTINGS[self.variant]
            if self._value(s) != s.default
        }

    def _value(self, setting: Setting) -> Any:
        return getattr(self, setting.name)
