"""TRF-16 reader and writer (FIDE C.04 Annex 2), with the extension lines that pairing
engines exchange.  Pure Python, no Django.

    parse_trf(text) -> TrfTournament      # raises TrfError listing every problem
    dump_trf(tournament) -> str           # parse_trf(dump_trf(t)) == t
    TrfTournament.snapshot(round) -> Snapshot

Columns are 1-based, as in the specification.  The player record (``001``):

    5-8 starting rank (our player id and TPN), 10 sex, 11-13 title, 15-47 name,
    49-52 rating, 54-56 federation, 58-68 FIDE id, 70-79 birth date, 81-84 points,
    86-89 rank, then one 10-column block per round from column 92: 92-95 opponent
    (``0000`` or four blanks: none), 97 colour (``w``/``b``; ``-`` or blank: none),
    99 result (``1 = 0 W D L + - U F H Z``; blank is ``Z``; letters in any case).

Tolerated: CRLF or CR line ends, trailing spaces, short lines (a player line that
stops early simply has fewer rounds; a missing round counts as ``Z`` in a round that
has been played), blank lines, ``###`` comment lines, a pairing-allocated bye written
``0000 - +`` (read as ``U``) and an absence written ``0000 - -`` (read as ``Z``).

Tournament lines kept in fields: 012 name, 022 city, 032 federation, 042/052 dates,
102 chief arbiter, 112 deputies (one per line), 122 time control.

Extension lines (other engines' conventions, and the TRF-2026 records):

- ``XXR n``, ``TNR n``, ``142 n``: total number of rounds.
- ``XXC white1`` / ``black1`` (also ``white``, ``black``, ``w``, ``b``), ``152 W`` /
  ``B``: initial colour.  Without one, :meth:`TrfTournament.effective_initial_colour`
  takes, as TRF-2026 (tag 152) says, the colour of the highest ranked player paired in
  round 1 (White before round 1).
- ``XXZ id ...``, ``BYE id ...``: players not to be paired in the next round.
- ``XXP a b``, ``FOR a b ...``: forbidden pairs (every pair among the ids), all rounds.
- ``XXS KEY=value ...``: point system, keys below; ``162``: TRF-2026 point system.
- ``250 MMMM GGGG RRF RRL PPPF PPPL`` (TRF-2026 accelerated rounds: GGGG virtual
  points for players PPPF..PPPL in rounds RRF..RRL): validated, kept verbatim, and
  given to the engine by :meth:`TrfTournament.snapshot` as ``Snapshot.acceleration``.
- ``240 T RRR id ...`` (TRF-2026 F/H/Z byes of round RRR) and ``260 R1 R2 id id ...``
  (TRF-2026 prohibited pairings for rounds R1..R2): validated, kept verbatim in
  ``extra_lines`` and applied by :meth:`TrfTournament.snapshot` to the round they name.

``XXS`` keys (values are decimals, e.g. ``0.5``): ``WW``/``BW`` win (must be equal:
the engine has one win value), ``WD``/``BD`` draw, ``WL``/``BL`` loss, ``FW``
forfeit win, ``FL`` forfeit loss, ``PAB`` pairing-allocated bye, ``FPB`` full-point
bye, ``HPB`` half-point bye, ``ZPB`` zero-point bye; also ``W``, ``D``, ``L`` for
both colours.  Keys left out: forfeit win, full-point bye and pairing-allocated bye
take the win value, the half-point bye the draw value, the rest the defaults (win 1,
draw 0.5, loss, forfeit loss and zero-point bye 0), as TRF-2026 162 does.
``162`` codes: ``W`` sets win, forfeit win and full-point bye; ``D`` draw and
half-point bye; ``L`` loss; ``A`` zero-point bye and forfeit loss; ``P`` the
pairing-allocated bye (default: as W); ``X`` (unknown result) is accepted and
ignored.

``### Dubov system rules (C.04.4.1): 1997 text`` (:data:`DUBOV_RULES_LINE`): the file was
paired by the Dubov rules of 1997 (FIDE's 192 codes have no year for Dubov); the snapshot
pairs by them (``Snapshot.dubov_rules``).  Without it, or with ``2025 text``, the 2025 text.

Every other line (062, 092, 132, ``ACC``, NRS records ...) is kept verbatim, in
order, in ``extra_lines`` and written back after the tournament header.  The ``172``
record (checked to name a method) and the NRS records give the ratings the pairing
uses (:meth:`TrfTournament.pairing_ratings`, :mod:`.ratings`).

Consistency checked after reading: unique starting ranks, opponents exist and name
the player back in the same round, played games have opposite colours, the two
results agree (1/0, =/=, W/L, D/D, +/-, -/-), at most one ``U`` per round.

Complexity: O(size of the file).
"""

from __future__ import annotations

from .data import (
    DUBOV_RULES_LINE,
    PAIRED_BY_LINE,
    ROUND_START,
    ROUND_WIDTH,
    TIEBREAK_TEXT_LINE,
    TrfError,
    TrfPlayer,
    TrfProblem,
    TrfTournament,
)
from .ratings import METHODS as RATING_METHODS
from .ratings import is_nrs, nrs_fields, rating_by_method
from .reader import parse_trf
from .writer import (
    TRF16_RECORDS,
    acceleration_records,
    as_trf16,
    bye_record,
    dump_trf,
    from_generated,
    one_line,
    tournament_from_snapshot,
)

__all__ = [
    "DUBOV_RULES_LINE",
    "RATING_METHODS",
    "PAIRED_BY_LINE",
    "TIEBREAK_TEXT_LINE",
    "TRF16_RECORDS",
    "acceleration_records",
    "as_trf16",
    "ROUND_START",
    "ROUND_WIDTH",
    "TrfError",
    "TrfPlayer",
    "TrfProblem",
    "TrfTournament",
    "bye_record",
    "dump_trf",
    "one_line",
    "from_generated",
    "is_nrs",
    "nrs_fields",
    "parse_trf",
    "rating_by_method",
    "tournament_from_snapshot",
]
