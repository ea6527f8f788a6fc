"""Writing TRF: dump_trf, and tournaments made from engine data."""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal

from ..model import (
    Acceleration,
    Colour,
    InvalidSnapshot,
    Player,
    PointSystem,
    RoundEntry,
    Snapshot,
)
from .data import TrfPlayer, TrfTournament

# Characters that end a line for some reader (str.splitlines: CR, LF, VT, FF, FS, GS,
# RS, NEL, LS, PS) and every other control character.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(text: str) -> str:
    """``text`` with every control character (a line break above all) replaced by a space:
    a field of a fixed-column file can never start a new record (audit finding 4)."""
    return _CONTROL.sub(" ", text)


def _fmt_points(value: Decimal) -> str:
    """Points in the ``11.5`` style of columns 81-84; ``215`` rather than ``215.0`` when
    one decimal would not fit."""
    if value == value.quantize(Decimal("0.1")):
        text = format(value.quantize(Decimal("0.1")), "f")
        if len(text) <= 4:
            return text
    return format(value.normalize(), "f")


def _fmt_round(e: RoundEntry) -> str:
    # the members' values read as attributes: Enum.value is a Python property, and a
    # 10,000 x 40 file writes 400,000 rounds
    opponent, colour, result = e
    opp = "0000" if opponent is None else f"{opponent:4d}"
    return f"{opp} {'-' if colour is None else colour._value_} {result._value_}"


def _player_line(p: TrfPlayer) -> str:
    def put(buf: list[str], first: int, text: str, width: int, right: bool = False) -> None:
        text = one_line(text)[:width]
        text = text.rjust(width) if right else text.ljust(width)
        buf[first - 1 : first - 1 + width] = list(text)

    buf = [" "] * 91
    put(buf, 1, "001", 3)
    put(buf, 5, str(p.id), 4, right=True)
    put(buf, 10, p.sex, 1)
    put(buf, 11, p.title, 3)
    put(buf, 15, p.name, 33)
    put(buf, 49, "" if p.rating is None else str(p.rating), 4, right=True)
    put(buf, 54, p.federation, 3)
    put(buf, 58, p.fide_id, 11, right=True)
    put(buf, 70, p.birth_date, 10)
    put(buf, 81, "" if p.points is None else _fmt_points(p.points), 4, right=True)
    put(buf, 86, "" if p.rank is None else str(p.rank), 4, right=True)
    return ("".join(buf) + "".join([_fmt_round(e) + "  " for e in p.history])).rstrip()


def _fmt_decimal(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    return text


def bye_record(kind: str, round_number: int, ids: Iterable[int]) -> str:
    """A TRF-2026 ``240`` record: requested bye ``kind`` (F, H or Z) in ``round_number``
    for the players ``ids`` (for ``extra_lines``; read back by :meth:`TrfTournament.round_byes`)."""
    if kind not in ("F", "H", "Z"):
        raise ValueError(f"bye type must be F, H or Z, not {kind!r}")
    return f"240 {kind} {round_number:3d} " + " ".join(f"{i:4d}" for i in sorted(ids))


def acceleration_records(acceleration: Iterable[Acceleration]) -> list[str]:
    """TRF-2026 ``250`` records for virtual points (ids are starting ranks): one record
    per run of consecutive ids, since a record names a range (read back by
    :meth:`TrfTournament.acceleration`)."""
    lines = []
    for a in acceleration:
        ids = sorted(a.players)
        runs: list[list[int]] = []
        for i in ids:
            if runs and i == runs[-1][1] + 1:
                runs[-1][1] = i
            else:
                runs.append([i, i])
        points = f"{a.points:4.1f}"
        for first, last in runs:
            lines.append(f"250      {points} {a.first_round:3d} {a.last_round:3d} {first:4d} {last:4d}")
    return lines


def scoring_record(ps: PointSystem) -> str:
    """TRF-2026 162 when it can say ``ps``: one value per code (W also forfeit win and
    full-point bye, D also the half-point bye, A the zero-point bye and forfeit loss, P
    the pairing-allocated bye); '' otherwise (XXS can)."""
    if ps.forfeit_win != ps.win or ps.full_bye != ps.win or ps.half_bye != ps.draw:
        return ""
    if ps.zero_bye != ps.forfeit_loss:
        return ""
    parts = [("W", ps.win), ("D", ps.draw), ("L", ps.loss), ("A", ps.zero_bye), ("P", ps.pairing_bye)]
    return ("162  " + "".join(f"{code}{value:4.1f}    " for code, value in parts)).rstrip()


# what TRF-16 defines (C.04 Annex 2, 2016): the tournament records 012-132, the players'
# 001 and the teams' 013; and the pairing engines' own XX records
TRF16_RECORDS = frozenset({"001", "012", "013", "022", "032", "042", "052", "062", "072", "082", "092", "102", "112",
                           "122", "132", "XXR", "XXC", "XXS", "XXP", "XXZ"})


def as_trf16(text: str) -> str:
    """``text`` with only the records TRF-16 and the engines read: the TRF-2026 records
    (142-260, national rating records) and ``###`` comments left out, for programs that
    stop at a record they do not know."""
    return "".join(line for line in text.splitlines(keepends=True) if line[:3] in TRF16_RECORDS)


def dump_trf(t: TrfTournament) -> str:
    """Write ``t`` as TRF-16 text with ``\\n`` line ends (CR is optional in practice).

    Order: header tags (with TRF-2026 142, 152 and, for a scoring other than the
    default, 162), the other lines kept verbatim, players by starting rank, then
    ``XXR``, ``XXC``, ``XXS`` (always, all keys), ``XXP`` (one per pair), ``XXZ``.
    Text longer than its columns (a name over 33 characters) is cut to fit.
    """
    out: list[str] = []
    for code, attr in (
        ("012", "name"),
        ("022", "city"),
        ("032", "federation"),
        ("042", "start_date"),
        ("052", "end_date"),
        ("102", "chief_arbiter"),
    ):
        value = getattr(t, attr)
        if value:
            out.append(f"{code} {one_line(value)}")
    for d in t.deputies:
        out.append(f"112 {one_line(d)}")
    if t.time_control:
        out.append(f"122 {one_line(t.time_control)}")
    # TRF-2026 beside the engines' XXR/XXC/XXS below (the reader takes either, and both
    # when they agree): rounds, initial colour, and the scoring when it is not the default
    if t.total_rounds is not None:
        out.append(f"142 {t.total_rounds}")
    if t.initial_colour is not None:
        out.append("152 " + ("W" if t.initial_colour is Colour.WHITE else "B"))
    if t.points != PointSystem() and (line := scoring_record(t.points)):
        out.append(line)
    out.extend(one_line(line) for line in t.extra_lines)
    for p in sorted(t.players, key=lambda q: q.id):
        out.append(_player_line(p))
    if t.total_rounds is not None:
        out.append(f"XXR {t.total_rounds}")
    if t.initial_colour is not None:
        out.append("XXC " + ("white1" if t.initial_colour is Colour.WHITE else "black1"))
    ps = t.points
    out.append(
        "XXS "
        + " ".join(
            f"{k}={_fmt_decimal(v)}"
            for k, v in (
                ("WW", ps.win),
                ("BW", ps.win),
                ("WD", ps.draw),
                ("BD", ps.draw),
                ("WL", ps.loss),
                ("BL", ps.loss),
                ("ZPB", ps.zero_bye),
                ("HPB", ps.half_bye),
                ("FPB", ps.full_bye),
                ("PAB", ps.pairing_bye),
                ("FW", ps.forfeit_win),
                ("FL", ps.forfeit_loss),
            )
        )
    )
    for pair in sorted(tuple(sorted(x)) for x in t.forbidden):
        out.append(f"XXP {pair[0]} {pair[1]}")
    if t.absent_next:
        out.append("XXZ " + " ".join(str(i) for i in sorted(t.absent_next)))
    return "\n".join(out) + "\n"


def _standings(players: tuple[Player, ...], points: PointSystem) -> tuple[dict[int, Decimal], dict[int, int]]:
    """Scores, and a rank by score then starting rank (no tie-breaks: not the engine's job)."""
    scores = {p.id: sum((points.points(e.result) for e in p.history), Decimal(0)) for p in players}
    order = sorted(players, key=lambda p: (-scores[p.id], p.tpn))
    return scores, {p.id: i for i, p in enumerate(order, start=1)}


def tournament_from_snapshot(
    snapshot: Snapshot,
    *,
    name: str = "",
    include_absent: bool = True,
) -> TrfTournament:
    """A TRF view of ``snapshot``: history up to the round before ``round_number``,
    ``absent`` as ``XXZ``.  Starting ranks are the players' ids; the TPN must equal
    the id (TRF-16 has one number per player) or :class:`InvalidSnapshot` is raised."""
    for p in snapshot.players:
        if p.tpn != p.id:
            raise InvalidSnapshot(
                f"player {p.id} has TPN {p.tpn}; TRF-16 needs the starting rank to be the id"
            )
    scores, ranks = _standings(snapshot.players, snapshot.points)
    players = tuple(
        TrfPlayer(
            id=p.id,
            name=p.name,
            rating=p.rating,
            points=scores[p.id],
            rank=ranks[p.id],
            history=p.history,
        )
        for p in sorted(snapshot.players, key=lambda q: q.id)
    )
    return TrfTournament(
        name=name,
        total_rounds=snapshot.total_rounds,
        initial_colour=snapshot.initial_colour,
        points=snapshot.points,
        players=players,
        absent_next=snapshot.absent if include_absent else frozenset(),
        forbidden=snapshot.forbidden,
    )


def from_generated(generated, *, name: str = "") -> TrfTournament:
    """TRF for a :mod:`pairing.engine.generator` tournament: every round it played,
    with ``XXR``, ``XXC``, ``XXS``, forbidden pairs, and (when fewer rounds were played
    than declared) the next round's absences as ``XXZ``.  Works on anything with the
    GeneratedTournament attributes (players, total_rounds, initial_colour, points,
    forbidden, absences, rounds_played)."""
    players_src: tuple[Player, ...] = tuple(generated.players)
    for p in players_src:
        if p.tpn != p.id:
            raise InvalidSnapshot(
                f"player {p.id} has TPN {p.tpn}; TRF-16 needs the starting rank to be the id"
            )
    scores, ranks = _standings(players_src, generated.points)
    players = tuple(
        TrfPlayer(
            id=p.id,
            name=p.name,
            rating=p.rating,
            points=scores[p.id],
            rank=ranks[p.id],
            history=p.history,
        )
        for p in sorted(players_src, key=lambda q: q.id)
    )
    return TrfTournament(
        name=name,
        total_rounds=generated.total_rounds,
        initial_colour=generated.initial_colour,
        points=generated.points,
        players=players,
        forbidden=frozenset(generated.forbidden),
        absent_next=_next_absences(generated),
        extra_lines=tuple(acceleration_records(getattr(generated, "acceleration", ()))),
    )


def _next_absences(generated) -> frozenset[int]:
    played = getattr(generated, "rounds_played", None)
    absences = tuple(getattr(generated, "absences", ()))
    if played is None or played >= generated.total_rounds or len(absences) <= played:
        return frozenset()
    return frozenset(absences[played])

