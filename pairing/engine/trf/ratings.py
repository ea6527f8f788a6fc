"""The ratings a TRF-2026 file pairs with: the FIDE rating of the 001 record (columns
49-52), the national rating of the National Rating Support (NRS) records, and tag 172,
which says how the two give each player's rating for the pairing (the "encoded starting
rank method": FIDE, NRO, FIDON, NIDOF, HBFN, LBFN, OTHER).

An NRS record has the columns of a 001 record, introduced by the rating federation
instead of ``001``: 1-3 federation, 5-8 starting rank, 49-52 national rating, 58-68
national id.  TRF-2026 marks the national rating as mandatory for pairing: it is where a
rating the pairing used goes when it is not the FIDE rating (an unrated player's
provisional rating is written there, beside the empty FIDE rating).

Readings where the text is silent (docs/interpretation.md, "The rating the pairing used"):
without a 172 record, and with ``OTHER`` (a method no program can compute), a player's
rating is the FIDE rating where there is one, else the NRS rating (as ``FIDON``).
"""

from __future__ import annotations

import re

METHODS = ("FIDE", "NRO", "FIDON", "NIDOF", "HBFN", "LBFN", "OTHER")

# a federation, then a starting rank (the 001 columns); not one of the engines' records
_NRS = re.compile(r"[A-Z]{3} ( {3}\d| {2}\d{2}| \d{3}|\d{4})(\s|$)")
_ALPHA_CODES = frozenset({"XXR", "XXC", "XXS", "XXP", "XXZ", "XXE", "BYE", "FOR", "TNR", "ACC"})


def rating_by_method(method: str | None, fide: int | None, national: int | None) -> int | None:
    """The rating ``method`` (tag 172) gives a player with these ratings; None when it
    gives none.  ``None`` and ``OTHER``: the FIDE rating, else the national one."""
    fide = fide or None
    national = national or None
    both = [r for r in (fide, national) if r]
    if method == "FIDE":
        return fide
    if method == "NRO":
        return national
    if method == "NIDOF":
        return national or fide
    if method == "HBFN":
        return max(both) if both else None
    if method == "LBFN":
        return min(both) if both else None
    return fide or national  # FIDON, OTHER, none given


def is_nrs(line: str) -> bool:
    """A National Rating Support record: a federation, then a starting rank."""
    return bool(_NRS.match(line)) and line[:3] not in _ALPHA_CODES


def nrs_fields(line: str) -> tuple[int, int | None, str]:
    """(starting rank, national rating or None, national id) of an NRS record."""
    rating = line[48:52].strip()
    return int(line[4:8]), int(rating) if rating.isdigit() and int(rating) > 0 else None, line[57:68].strip()


def method_of(line: str) -> str | None:
    """The method of a ``172 FED METHOD`` record, or None when it names none we know."""
    words = line[3:].split()
    return next((w.upper() for w in reversed(words) if w.upper() in METHODS), None)
