"""Counted nouns in messages: "1 player", "2 players" (never "1 players" or "player(s)")."""

from __future__ import annotations


def counted(number: int, singular: str, plural: str | None = None) -> str:
    return f"{number} {singular if number == 1 else (plural or singular + 's')}"
