"""The standings as rows of a CSV file for spreadsheets: what goes in each cell, with
every cell a spreadsheet could run as a formula turned into text."""

from __future__ import annotations

import re

from ..models import Player, Tournament
from .standings import ranked

HEADER = ["Rk", "No", "Title", "Name", "Rtg", "Fed", "Pts"]

# A formula starts a cell: at the start of the text, or after a character that some
# spreadsheet takes as the separator when it opens the file (comma, semicolon -- the
# default in much of Europe --, tab, pipe), with spaces or a quote in between.
_FORMULA_START = re.compile(r"""(^|[,;\t|])([\s"']*)([=+\-@])""")


def spreadsheet_text(text: str) -> str:
    """``=HYPERLINK(..)`` -> ``'=HYPERLINK(..)``; ``a;=1+1;`` -> ``a;'=1+1;``: an
    apostrophe before every character that would start a formula in any cell the text
    may be split into (OWASP CSV injection).  A leading tab or carriage return is
    neutralised the same way."""
    if text[:1] in ("\t", "\r"):
        text = "'" + text
    return _FORMULA_START.sub(lambda m: f"{m.group(1)}{m.group(2)}'{m.group(3)}", text)


def standings_csv(t: Tournament, asked: int | None) -> tuple[str, list[list[object]]]:
    """The file name and the rows (header first) of the standings after round ``asked``
    (None: the latest complete round)."""
    done = ranked(t, asked)  # the standings every page shows, computed once
    players = Player.objects.only("tpn", "title", "name", "rating", "federation").in_bulk(
        [r.player_id for r in done.rows]
    )
    table: list[list[object]] = [[*HEADER, *done.labels]]
    for r in done.standing_rows(done.rows, players):
        p = r.player
        table.append([
            r.rank, p.tpn, p.title, spreadsheet_text(p.name), p.rating, p.federation, r.points, *r.tiebreak_values
        ])
    return f"{t.slug}-standings-round-{done.rounds}.csv", table
