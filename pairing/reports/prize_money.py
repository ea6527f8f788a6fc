"""Prize money: who gets which prize and how much, from the final order of a section.

Pure Python (no Django), exact arithmetic (``Fraction``) until the one rounding at the end.

* A **table** is a list of prizes (1st, 2nd, ...) and the players eligible for it in the
  final order: the place prizes (everyone) and each category's prizes (its members).
* **Sharing** of players tied on points (a score group covering places i..j of a table):
  ``equal`` - each gets the sum of the prizes of places i..j divided by their number;
  ``hort`` (the Hort system) - each gets half of that equal share plus half of the prize
  of the place his tie-breaks give him; ``none`` - each gets the prize of the place his
  tie-breaks give him.
* **One prize per player**: a player with money from two tables keeps one and leaves the
  other tables (whose prizes then go further down). ``larger``: the larger amount (a
  place prize when equal, then the categories in their order); ``place``: a place prize
  before any category prize.  Conflicts are settled one at a time, the player with the
  largest amount first (then the better placed), and everything is computed again after
  each: a player leaving a tie makes the others' share bigger.
* **Rounding**: each amount rounded *down* to the unit (0.01, 1, 5 or 10); what the rounding
  leaves unpaid is reported, never paid twice.

Complexity: O(C * T * n) for C conflicts, T tables and n players.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal
from fractions import Fraction

PLACE = "place"


@dataclass(frozen=True)
class Table:
    key: str  # PLACE, or the category's key
    prizes: tuple[Decimal, ...]
    members: tuple[int, ...]  # eligible players, in the final order


@dataclass(frozen=True)
class Award:
    player: int
    table: str
    first: int  # places first..last of the table that the player's score group covered
    last: int
    amount: Decimal  # rounded down to the unit
    exact: Fraction


@dataclass(frozen=True)
class Result:
    awards: dict[int, Award]
    unpaid: Decimal  # left by the rounding


def distribute(prizes: tuple[Decimal, ...], members: list[int], points: dict[int, Decimal], sharing: str
               ) -> dict[int, tuple[Fraction, int, int]]:
    """One table: ``player -> (amount, first place, last place)`` for the players of the
    score groups that reach a prize."""
    out: dict[int, tuple[Fraction, int, int]] = {}
    i = 0
    while i < len(members) and i < len(prizes):
        j = i
        while j + 1 < len(members) and points[members[j + 1]] == points[members[i]]:
            j += 1
        group = members[i:j + 1]
        values = [Fraction(prizes[k]) if k < len(prizes) else Fraction(0) for k in range(i, j + 1)]
        equal = sum(values, Fraction(0)) / len(group)
        for pos, pid in enumerate(group):
            own = values[pos]
            if sharing == "equal":
                amount = equal
            elif sharing == "hort":
                amount = equal / 2 + own / 2
            else:
                amount = own
            first, last = (i + 1, j + 1) if sharing != "none" else (i + pos + 1, i + pos + 1)
            out[pid] = (amount, first, last)
        i = j + 1
    return out


def allocate(tables: list[Table], points: dict[int, Decimal], sharing: str = "equal", one_prize: str = "larger",
             unit: Decimal = Decimal("0.01")) -> Result:
    """Every player's prize (at most one), as the module's docstring says."""
    order = {pid: n for n, pid in enumerate(next((t.members for t in tables if t.key == PLACE), ()))}
    rank_of = [t.key for t in tables]
    excluded: dict[str, set[int]] = {t.key: set() for t in tables}
    while True:
        shares = {t.key: distribute(t.prizes, [m for m in t.members if m not in excluded[t.key]], points, sharing)
                  for t in tables}
        held: dict[int, list[tuple[str, Fraction]]] = {}
        for key, table in shares.items():
            for pid, (amount, _first, _last) in table.items():
                if amount > 0:
                    held.setdefault(pid, []).append((key, amount))
        conflicts = {pid: h for pid, h in held.items() if len(h) > 1}
        if not conflicts:
            break
        pid = min(conflicts, key=lambda p: (-max(a for _k, a in conflicts[p]), order.get(p, len(order)), p))
        options = conflicts[pid]
        if one_prize == "place" and any(k == PLACE for k, _a in options):
            keep = PLACE
        else:
            keep = min(options, key=lambda ka: (-ka[1], rank_of.index(ka[0])))[0]
        for key, _amount in options:
            if key != keep:
                excluded[key].add(pid)
    awards: dict[int, Award] = {}
    total_exact = Fraction(0)
    total_paid = Decimal(0)
    for key in rank_of:
        for pid, (amount, first, last) in shares[key].items():
            if amount <= 0:
                continue
            paid = round_down(amount, unit)
            awards[pid] = Award(pid, key, first, last, paid, amount)
            total_exact += amount
            total_paid += paid
    exact = Decimal(total_exact.numerator) / Decimal(total_exact.denominator)
    return Result(awards, (exact - total_paid).quantize(Decimal("0.01"), rounding=ROUND_FLOOR))


def round_down(amount: Fraction, unit: Decimal) -> Decimal:
    """``amount`` rounded down to a multiple of ``unit`` (money to the cent: never more than the fund)."""
    units = (amount / Fraction(unit)).__floor__()
    return (Decimal(units) * unit).quantize(Decimal("0.01"))
