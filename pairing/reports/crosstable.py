"""The crosstable: standings order, one cell per complete round (``12w1``, ``bye``, ``H``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from ..engine import Colour, Result, RoundEntry
from ..models import Bye, ByeKind, Player, Tournament
from .standings import StandingRow, standings_table

CELL_RESULT = {
    Result.WIN: "1", Result.DRAW: "½", Result.LOSS: "0",
    Result.WIN_UNRATED: "1", Result.DRAW_UNRATED: "½", Result.LOSS_UNRATED: "0",
    Result.FORFEIT_WIN: "+", Result.FORFEIT_LOSS: "-",
    Result.ADJOURNED: "?",  # adjourned: a draw for now
}


_CELL_BYE = {Result.PAIRING_BYE: _("bye"), Result.FULL_BYE: "F", Result.HALF_BYE: "H", Result.ZERO_BYE: "–"}


@dataclass(frozen=True)
class CrossRow:
    number: int  # position in the table (opponents are named by it)
    standing: StandingRow
    cells: tuple[str, ...]


def crosstable(t: Tournament, rounds: int | None = None) -> tuple[list[str], list[CrossRow], int]:
    """Standings order, one cell per complete round: ``12w1``, ``5b½``, ``3w+``,
    ``bye``, ``H``; opponents by their line number in this table."""
    table = standings_table(t, rounds)
    listed = [*table.rows, *table.expelled]  # expelled players at the foot, without a rank
    line = {r.player.pk: i for i, r in enumerate(listed, start=1)}
    zero = requested_zero_byes(t, table.rounds)
    out = []
    for i, r in enumerate(listed, start=1):
        cells = tuple(
            "Z" if (r.player.pk, k) in zero else _cell(e, line)
            for k, e in enumerate(table.hist[r.player.pk], start=1)
        )
        out.append(CrossRow(i, r, cells))
    return table.labels, out, table.rounds


def crosstable_lines(t: Tournament, table, shown) -> list[CrossRow]:
    """The crosstable's lines for ``shown`` (some lines of ``table``, a
    :class:`~pairing.reports.standings.Ranked`, ranked players then expelled ones): the
    cells of these players only, their opponents named by their line in the whole table.
    A page of 200 lines of a 9,999-player field reads the games of those 200 players."""
    from ..services.snapshot import histories

    players = Player.objects.in_bulk([r.player_id for r in shown])
    hist = histories(t, table.rounds, list(players.values()))
    line = table.lines()
    zero = requested_zero_byes(t, table.rounds, list(players))
    standing = table.standing_rows(shown, players)
    return [
        CrossRow(
            line[r.player.pk], r,
            tuple("Z" if (r.player.pk, k) in zero else _cell(e, line) for k, e in enumerate(hist[r.player.pk], start=1)),
        )
        for r in standing
    ]


def requested_zero_byes(t: Tournament, rounds: int, player_ids: list[int] | None = None) -> set[tuple[int, int]]:
    """(player pk, round) of the zero-point byes players asked for (of ``player_ids``
    only, when given): the histories give those and the rounds a player was not in the
    tournament (late entry, withdrawal) the same entry, ``Z``; the crosstable and the
    card tell them apart."""
    byes = Bye.objects.filter(tournament=t, kind=ByeKind.ZERO, round_number__lte=rounds)
    if player_ids is not None:
        byes = byes.filter(player_id__in=player_ids)
    return set(byes.values_list("player_id", "round_number"))


def _cell(e: RoundEntry, line: dict[int, int]) -> str:
    if e.opponent is None:
        return str(_CELL_BYE.get(e.result, e.result.value))
    colour = "w" if e.colour is Colour.WHITE else "b"
    return f"{line[e.opponent]}{colour}{CELL_RESULT[e.result]}"



@dataclass(frozen=True)
class SquareRow:
    """One line of a round robin's square crosstable: the player (by Berger number),
    his result against each number (two in a double round robin, the first cycle
    first; "X" against himself), points and rank."""

    standing: StandingRow
    cells: tuple[str, ...]


def square(t: Tournament, rounds: int | None = None) -> tuple[list[str], list[SquareRow], int]:
    """The classic round-robin crosstable, lines and columns in Berger-number order."""
    table = standings_table(t, rounds)
    listed = sorted([*table.rows, *table.expelled], key=lambda r: r.player.tpn or 0)
    order = [r.player.pk for r in listed]
    out = []
    for r in listed:
        against: dict[int, list[str]] = {}
        for e in table.hist[r.player.pk]:
            if e.opponent is not None:
                against.setdefault(e.opponent, []).append(CELL_RESULT.get(e.result, "?"))
        cells = tuple("X" if pk == r.player.pk else " ".join(against.get(pk, [])) for pk in order)
        out.append(SquareRow(r, cells))
    return table.labels, out, table.rounds
