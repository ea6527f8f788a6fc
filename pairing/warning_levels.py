"""FIDE's warning levels (VCL4THP): one implementation for every act that needs them.

* Level 2: a notice the arbiter sees (a message on the page; nothing to confirm).
* Level 3: an explicit confirmation before the act.
* Level 4: a double confirmation: the warning, then the question asked again.

A service that needs a confirmation takes ``confirmations`` (how many the arbiter has
given for this very request) and calls :func:`require`, which raises
:class:`NeedsConfirmation` before anything is written when there are too few.  The
views turn that into a confirmation page (:mod:`pairing.views.confirm`) whose form
re-sends the same request with a signed token; a POST without it does nothing.  There
is no setting that switches a level off or lowers it (Q218–221).

Imports nothing from Django: services and views both use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Level(IntEnum):
    NOTICE = 2
    CONFIRM = 3
    DOUBLE = 4

    @property
    def confirmations(self) -> int:
        """How many confirmations the level takes: 0, 1 or 2."""
        return max(0, self.value - 2)


@dataclass(frozen=True)
class WarningGroup:
    """Warnings of one kind, for a question with many (the import's): what they are,
    what they mean for the arbiter, one line each."""

    heading: str
    meaning: str
    items: tuple[str, ...]


class NeedsConfirmation(Exception):
    """The act needs ``level``; nothing was written.  ``title`` says what the act is,
    ``warnings`` why it needs confirming (one sentence each); ``groups``, when given,
    the same findings sorted by kind, most serious first, for the page to show."""

    def __init__(self, level: Level, title: str, warnings: list[str], groups: list[WarningGroup] | None = None):
        super().__init__(title)
        self.level = Level(level)
        self.title = title
        self.warnings = list(warnings)
        self.groups = list(groups or [])


def require(level: Level, confirmations: int, title: str, warnings: list[str],
            groups: list[WarningGroup] | None = None) -> None:
    """Raise :class:`NeedsConfirmation` unless ``confirmations`` meet ``level``."""
    if confirmations < Level(level).confirmations:
        raise NeedsConfirmation(level, title, warnings, groups)
