"""English wording for the records (the audit trail, the rating report's lines): counted
nouns ("1 player", "2 players"), points, labels in English.  Pages and messages count with
Django's ngettext in the visitor's language instead."""

from __future__ import annotations


def counted(number: int, singular: str, plural: str | None = None) -> str:
    return f"{number} {singular if number == 1 else (plural or singular + 's')}"


def points_text(value) -> str:
    """A point value as the pages write it: 1, 0.5, 10 (not 1.0)."""
    text = f"{value:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def in_english(text) -> str:
    """``text`` (a lazy translation, e.g. a choice's label) in English: the audit trail
    and the rating report's records are written in English whatever the page's language."""
    from django.utils import translation

    with translation.override("en"):
        return str(text)
