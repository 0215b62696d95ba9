"""Small helpers to read settings from the environment."""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {raw!r}") from exc


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = os.environ.get(name, default)
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, got {value!r}")
    return value


def env_rate(name: str, default: tuple[int, int]) -> tuple[int, int]:
    """A rate written ``count/seconds`` (``5/10``: five per ten seconds)."""
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    count, _, seconds = raw.partition("/")
    try:
        rate = (int(count), int(seconds))
    except ValueError as exc:
        raise ImproperlyConfigured(
            f"{name} must be a count and seconds, like 5/10, got {raw!r}"
        ) from exc
    if rate[0] < 1 or rate[1] < 1:
        raise ImproperlyConfigured(f"{name} must be a positive count and seconds, got {raw!r}")
    return rate
