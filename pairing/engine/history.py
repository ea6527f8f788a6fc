"""What every Swiss system reads from a player's history (C.04.1 / C.04.2, 2026 texts):
played colours and the colour difference, the Basic Rules' PAB bar (Art. 4), pairing
scores with virtual points (C.04.7), and the snapshot's validation.

Shared by the systems' packages (:mod:`pairing.engine.dubov`, :mod:`pairing.engine.dutch`);
each system builds its own per-player figures on top.  All functions are O(R) per player.
"""

from __future__ import annotations

from decimal import Decimal
from itertools import accumulate
from operator import attrgetter

from .model import (
    _BYE_CODES,
    _PLAYED_CODES,
    Colour,
    InvalidSnapshot,
    Player,
    PointSystem,
    Preference,
    PreferenceStrength,
    Result,
    RoundEntry,
    Snapshot,
    System,
    virtual_points,
)


def played_colours(history: tuple[RoundEntry, ...]) -> tuple[Colour, ...]:
    """Colours of played games only, in order (C.04.2 Art. 3.4: only played games count
    where the colour sequence is meaningful)."""
    # the entries unpacked (tuples) and the code tested, not RoundEntry.played (two
    # Python property calls an entry: 400,000 entries at 10,000 x 40)
    played = _PLAYED_CODES
    return tuple(
        colour for opponent, colour, result in history
        if opponent is not None and colour is not None and result._value_ in played
    )


def colour_difference(history: tuple[RoundEntry, ...]) -> int:
    """Games with White minus games with Black (played games only)."""
    cols = played_colours(history)
    return sum(1 if c is Colour.WHITE else -1 for c in cols)


def preference_of_colours(cols: tuple[Colour, ...]) -> Preference | None:
    """The colour preference of a player who played ``cols`` (Dutch 1.7, Dubov 1.5):
    absolute when CD > +1 or < -1 or the last two played games had the same colour (when
    both hold and disagree, e.g. WWWWBB, the colour difference decides the side); strong
    when CD = +-1; mild when CD = 0, alternating from the last played game.  None when
    the player has played no game (each system says what that means)."""
    if not cols:
        return None
    return preference_after(2 * cols.count(Colour.WHITE) - len(cols), cols[-1], cols[-2] if len(cols) >= 2 else None)


def preference_after(cd: int, last: Colour, before_last: Colour | None) -> Preference:
    """:func:`preference_of_colours` of a player with colour difference ``cd`` whose last
    two played games had ``before_last`` (None: only one game) and ``last``: all the rule
    reads of the colours (a player's figures computed in bulk ask it by these three)."""
    if cd > 1:
        return Preference(Colour.BLACK, PreferenceStrength.ABSOLUTE)
    if cd < -1:
        return Preference(Colour.WHITE, PreferenceStrength.ABSOLUTE)
    if last is before_last:
        return Preference(last.opposite, PreferenceStrength.ABSOLUTE)
    if cd == 1:
        return Preference(Colour.BLACK, PreferenceStrength.STRONG)
    if cd == -1:
        return Preference(Colour.WHITE, PreferenceStrength.STRONG)
    return Preference(last.opposite, PreferenceStrength.MILD)


def pab_eligible(history: tuple[RoundEntry, ...], points: PointSystem) -> bool:
    """C.04.1 Art. 4 (2026), Dutch [C2], Dubov C2 / D8: no earlier pairing-allocated bye
    (whatever its value), no forfeit win, no unplayed round that scored at least a win
    (F, or any bye worth a win under this point system)."""
    barred, worth_a_win = pab_bars(points), points.codes_worth_a_win
    for opponent, _colour, result in history:
        code = result._value_
        if code in barred or (opponent is None and code in worth_a_win):
            return False
    return True


def pab_bars(points: PointSystem) -> frozenset[str]:
    """The result codes that bar a player from the PAB (:func:`pab_eligible`) whatever the
    entry's opponent: the PAB, the forfeit win, and every code worth a win that is not a
    played game.  (A played code without an opponent, which a validated snapshot never
    holds, bars too: :func:`pab_eligible` reads that.)"""
    return _PAB_BARS | (points.codes_worth_a_win - _PLAYED_CODES)


_PAB_BARS = frozenset({Result.PAIRING_BYE.value, Result.FORFEIT_WIN.value})


def pairing_scores(snapshot: Snapshot, codes: list[list[str]] | None = None) -> tuple[dict[int, list[Decimal]], dict[int, Decimal]]:
    """``(running, real)``: ``running[id][k]`` is the player's pairing score before round
    k + 1 (points plus that round's virtual points, C.04.7), for k = 0 .. round_number - 1;
    ``real[id]`` the points as in the standings.  ``codes``: the result codes of each
    player in the order of ``snapshot.players`` (:func:`history_columns`), when the caller
    has them.  O(N * R)."""
    pts = snapshot.points
    accel = snapshot.acceleration
    running: dict[int, list[Decimal]] = {}
    real: dict[int, Decimal] = {}
    points_of = pts.by_code.__getitem__
    for i, p in enumerate(snapshot.players):
        # the results' column (zip transposes in C), each code's points
        if codes is not None:
            gained = list(map(points_of, codes[i]))
        else:
            gained = list(map(points_of, map(_VALUE, tuple(zip(*p.history, strict=True))[2]))) if p.history else []
        if accel:
            acc = Decimal(0)
            seq = [acc + virtual_points(accel, p.id, 1)]
            for k, value in enumerate(gained, start=2):
                acc += value
                seq.append(acc + virtual_points(accel, p.id, k))
        else:  # the running sums, added in the same order (the same Decimals)
            seq = list(accumulate(gained, initial=Decimal(0)))
            acc = seq[-1]
        running[p.id] = seq
        real[p.id] = acc
    return running, real


def validate(snapshot: Snapshot) -> HistoryColumns:
    """Reject inconsistent input up front (style 8).  Raises InvalidSnapshot.  Returns the
    histories as columns (:func:`history_columns`), now known to agree: what a system
    computing its figures in bulk reads next (:func:`pairing.engine.dubov.state.player_states`).

    Ratings are required by the Dubov system only (its 1.1 and the ARO); the Dutch
    system pairs by score and TPN alone."""
    s = snapshot
    if s.round_number < 1:
        raise InvalidSnapshot(f"round to pair must be at least 1, got {s.round_number}")
    if s.round_number > s.total_rounds:
        raise InvalidSnapshot(
            f"round {s.round_number} is beyond the tournament's {s.total_rounds} rounds"
        )
    ids: dict[int, Player] = {}
    tpns: set[int] = set()
    for p in s.players:
        if p.id in ids:
            raise InvalidSnapshot(f"duplicate player id {p.id}")
        if p.tpn in tpns:
            raise InvalidSnapshot(f"duplicate TPN {p.tpn} (player {p.id})")
        if p.tpn < 1:
            raise InvalidSnapshot(f"player {p.id}: TPN must be positive")
        if s.system is System.DUBOV and (p.rating is None or p.rating <= 0):
            raise InvalidSnapshot(
                f"player {p.id} has no rating; Dubov 1.1 requires a (provisional) rating for everyone"
            )
        if len(p.history) != s.round_number - 1:
            raise InvalidSnapshot(
                f"player {p.id} has {len(p.history)} rounds of history, expected {s.round_number - 1}"
            )
        ids[p.id] = p
        tpns.add(p.tpn)
    columns = history_columns(s.players)
    if not _histories_agree(columns):
        _explain_histories(s.players, ids)
    for pid in s.absent:
        if pid not in ids:
            raise InvalidSnapshot(f"absent player {pid} is not in the tournament")
    for a in s.acceleration:
        if a.points <= 0:
            raise InvalidSnapshot(f"acceleration of {a.points} virtual points: must be positive")
        if not 1 <= a.first_round <= a.last_round:
            raise InvalidSnapshot(
                f"acceleration over rounds {a.first_round}-{a.last_round}: not a range of rounds"
            )
        unknown = sorted(x for x in a.players if x not in ids)
        if unknown:
            raise InvalidSnapshot(f"acceleration names unknown players {unknown}")
    for pair in s.forbidden:
        if len(pair) != 2 or not all(x in ids for x in pair):
            raise InvalidSnapshot(f"forbidden pair {sorted(pair)} names an unknown player")
    return columns


_VALUE = attrgetter("_value_")


# (id -> position, opponents by position, result codes, colours): see history_columns
HistoryColumns = tuple[dict[int, int], list[list[int | None]], list[list[str]], list[list[Colour | None]]]


def history_columns(players) -> HistoryColumns:
    """The histories of ``players`` (anything with ``id`` and ``history``) as lists, read
    in C (400,000 entries at 10,000 x 40): (id -> position in ``players``, each player's
    opponents by position, -1 for none and None for an id not among ``players``, each
    player's result codes, each player's colours).  Each history is transposed by
    ``zip(*history)`` (its entries are tuples: half the time of reading them field by
    field); ``zip(*rows)`` makes the lists a round's columns."""
    index = {p.id: i for i, p in enumerate(players)}
    of = {**index, None: -1}.get
    opps: list[list[int | None]] = []
    codes: list[list[str]] = []
    colours: list[list[Colour | None]] = []
    for p in players:
        if p.history:
            opponents, played_with, results = zip(*p.history, strict=True)
            opps.append(list(map(of, opponents)))
            codes.append(list(map(_VALUE, results)))
            colours.append(list(played_with))
        else:
            opps.append([])
            codes.append([])
            colours.append([])
    return index, opps, codes, colours


def _histories_agree(columns: HistoryColumns) -> bool:
    """Whether every line agrees with its opponents' (what :func:`_explain_histories`
    checks entry by entry), checked a round at a time on the rounds' columns
    (:func:`history_columns`): a bye against nobody; a game or forfeit against another
    known player whose line names this one back, both played or both not; a played game
    with opposite colours."""
    _index, opps, codes, colours = columns
    bye, played = _BYE_CODES, _PLAYED_CODES
    columns = zip(zip(*opps, strict=True), zip(*codes, strict=True), zip(*colours, strict=True), strict=True)
    for col_opp, col_code, col_colour in columns:
        for k, j in enumerate(col_opp):
            if j is None:
                return False
            code = col_code[k]
            if j < 0:
                if code not in bye:
                    return False
            elif j == k or code in bye or col_opp[j] != k or (code in played) != (col_code[j] in played):
                return False
            elif code in played and (col_colour[k] is None or col_colour[j] is None or col_colour[k] is col_colour[j]):
                return False
    return True


def _explain_histories(players: tuple[Player, ...], ids: dict[int, Player]) -> None:
    """Raise InvalidSnapshot naming the first entry :func:`_histories_agree` refused."""
    for p in players:
        for k, e in enumerate(p.history, start=1):
            if e.result.is_bye:
                if e.opponent is not None:
                    raise InvalidSnapshot(f"player {p.id}, round {k}: a bye ({e.result.value}) has no opponent")
                continue
            if e.opponent is None:
                raise InvalidSnapshot(f"player {p.id}, round {k}: result {e.result.value} needs an opponent")
            if e.opponent == p.id:
                raise InvalidSnapshot(f"player {p.id}, round {k}: paired against themselves")
            opp = ids.get(e.opponent)
            if opp is None:
                raise InvalidSnapshot(f"player {p.id}, round {k}: unknown opponent {e.opponent}")
            back = opp.history[k - 1]
            if back.opponent != p.id:
                raise InvalidSnapshot(
                    f"round {k}: player {p.id} met {opp.id}, but {opp.id}'s record names "
                    f"{back.opponent if back.opponent is not None else 'no opponent'}"
                )
            if e.played != back.played:
                raise InvalidSnapshot(
                    f"round {k}: players {p.id} and {opp.id} disagree on whether their game was played"
                )
            if e.played and (e.colour is None or back.colour is None or e.colour is back.colour):
                raise InvalidSnapshot(f"round {k}: players {p.id} and {opp.id} need opposite colours")
    raise AssertionError("_histories_agree refused what _explain_histories accepts")  # pragma: no cover


def parity_tpns(snapshot: Snapshot) -> dict[int, int]:
    """The TPNs of the players who are in the tournament when this round is paired: those
    to pair now and those paired (a game, a forfeit or a PAB) in an earlier round, numbered
    again 1, 2, ... in TPN order.  A player who has never been paired and is not paired
    now (a late entry still to come, or a pre-set bye in round 1) is not yet on the
    pairing list (C.04.2 Art. 2.4-2.5), so does not take a number that would change the
    others' parity (Dutch 5.2.5, Burstein 5.2.1).  bbpPairings v6 and Gacrux number so (t9 round 1 of the bbp
    campaign, seed 1)."""
    inside = [
        p for p in snapshot.players
        if p.id not in snapshot.absent
        or any(e.opponent is not None or e.result is Result.PAIRING_BYE for e in p.history)
    ]
    inside.sort(key=lambda p: p.tpn)
    return {p.id: k for k, p in enumerate(inside, start=1)}
