"""Rankings by category, the club ranking and the prize list of a section, all from the
same standings (:func:`~pairing.reports.standings.standings_table`)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal

from ..models import Category, CategoryKind, Player, Prize, PrizeSettings, Tournament
from .prize_money import PLACE, Award, Table, allocate
from .standings import StandingRow, standings_table


def event_year(t: Tournament) -> int:
    day = (t.event.start_date if t.event_id and t.event.start_date else None) or t.start_date or datetime.date.today()
    return day.year


def member(c: Category, p: Player, year: int) -> bool:
    """Whether ``p`` is in category ``c``; an age group counts birth years only (U12 in
    2026: born in 2014 or later; 50+ in 2026: born in 1976 or earlier)."""
    if c.kind == CategoryKind.UNDER:
        return p.birth_year is not None and p.birth_year >= year - c.age
    if c.kind == CategoryKind.OVER:
        return p.birth_year is not None and p.birth_year <= year - c.age
    if c.kind == CategoryKind.WOMEN:
        return p.sex == "f"
    if c.kind == CategoryKind.UNRATED:
        return p.fide_rating is None
    if c.kind == CategoryKind.RATING:
        return (c.rating_min is None or p.rating >= c.rating_min) and (c.rating_max is None or p.rating <= c.rating_max)
    if c.kind == CategoryKind.FEDERATION:
        return p.federation.upper() == c.value.upper()
    if c.kind == CategoryKind.CLUB:
        return " ".join(p.club.casefold().split()) == " ".join(c.value.casefold().split())
    return False


@dataclass
class CategoryRanking:
    category: Category
    rows: list[tuple[int, StandingRow]]  # (rank in the category, the standings row)


@dataclass
class ClubRow:
    club: str
    points: Decimal
    counted: list[StandingRow]
    complete: bool


@dataclass
class PrizeLine:
    table: str
    title: str
    award: Award
    row: StandingRow


@dataclass
class PrizeReport:
    settings: PrizeSettings
    rounds: int
    categories: list[CategoryRanking]
    clubs: list[ClubRow]
    lines: list[PrizeLine]
    unpaid: Decimal
    total: Decimal


def settings_of(t: Tournament) -> PrizeSettings:
    return PrizeSettings.objects.filter(section=t).first() or PrizeSettings(section=t)


def report(t: Tournament) -> PrizeReport:
    table = standings_table(t)
    rows = table.rows
    year = event_year(t)
    cats = list(Category.objects.filter(section=t).order_by("pk"))
    rankings = []
    for c in cats:
        mine = [r for r in rows if member(c, r.player, year)]
        ranked, prev, rank = [], None, 0
        for n, r in enumerate(mine, start=1):
            if prev is None or r.rank != prev:
                rank = n
            prev = r.rank
            ranked.append((rank, r))
        rankings.append(CategoryRanking(c, ranked))
    s = settings_of(t)
    clubs: dict[str, list[StandingRow]] = {}
    for r in rows:
        if r.player.club.strip():
            clubs.setdefault(" ".join(r.player.club.split()), []).append(r)
    club_rows = [ClubRow(name, sum((r.points for r in rs[:s.club_best]), Decimal(0)), rs[:s.club_best],
                         len(rs) >= s.club_best) for name, rs in clubs.items()]
    club_rows.sort(key=lambda c: (not c.complete, -c.points, min(r.rank for r in c.counted), c.club.casefold()))
    prizes = list(Prize.objects.filter(section=t).order_by("place"))
    order = tuple(r.player.pk for r in rows)
    points = {r.player.pk: r.points for r in rows}
    tables = [Table(PLACE, tuple(p.amount for p in prizes if p.category_id is None), order)]
    titles = {PLACE: ""}
    for ranking in rankings:
        amounts = tuple(p.amount for p in prizes if p.category_id == ranking.category.pk)
        if amounts:
            key = f"c{ranking.category.pk}"
            tables.append(Table(key, amounts, tuple(r.player.pk for _n, r in ranking.rows)))
            titles[key] = ranking.category.name
    result = allocate(tables, points, s.sharing, s.one_prize, s.unit)
    by_pk = {r.player.pk: r for r in rows}
    lines = [PrizeLine(a.table, titles[a.table], a, by_pk[a.player]) for a in result.awards.values()]
    key_order = [tb.key for tb in tables]
    lines.sort(key=lambda line: (key_order.index(line.table), line.award.first, order.index(line.award.player)))
    return PrizeReport(s, table.rounds, rankings, club_rows, lines, result.unpaid,
                       sum((a.amount for a in result.awards.values()), Decimal(0)))
