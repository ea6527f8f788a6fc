"""``{{ value|points }}``: a point value as the tables write it (1, 0.5, 0.25; not 1.0)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django import template

from ..reports.standings import figure

register = template.Library()


@register.filter
def points(value) -> str:
    try:
        text = figure(Decimal(str(value)), 2)
    except (InvalidOperation, ValueError, TypeError):
        return str(value)
    return text.rstrip("0").rstrip(".") if "." in text else text


@register.filter
def at(sequence, index: int):
    """``sequence[index]`` (a column kept beside the rows, e.g. the rating changes)."""
    try:
        return sequence[index]
    except (IndexError, TypeError):
        return None
