"""Errors the engine raises; each carries a message meant for a person."""


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""


class RuleSetError(EngineError):
    """An unknown setting name or a value outside what docs/rules.md §6 allows."""

    def __init__(self, message: str, setting: str | None = None) -> None:
        super().__init__(message)
        self.setting = setting


class IllegalAction(EngineError):
    """An action that is not legal in the current position; the deal is unchanged.

    The message is the record-replay form (``illegal action {...}``); ``reason``
    says why, for people.
    """

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason or message


class RecordError(EngineError):
    """A deal record that cannot be read at all (docs/deal-record.md's non-zero exits)."""
