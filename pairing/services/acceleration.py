"""Baku acceleration (C.04.5.1) of a tournament: who is in group A, the virtual points
the engine pairs with, and the TRF-2026 ``250`` records that carry them.

Readings (docs/fide-mode.md, "Baku acceleration"):

* GA is made of the players to be paired in round 1, in pairing-number order: a
  player who is not paired in round 1 (a requested bye, a withdrawal) is not counted
  in N (VCL4THP Q111).  The first ``2 * ceil(N / 4)`` of them are GA; the last one is
  fixed when round 1 is published.
* From then on GA is everyone whose pairing number is at or above that player's: a
  late entry or a round-1 absentee ranked above the last GA player joins GA, so GA
  may become odd (C.04.5.1, late entries, note 2).
* The virtual points count for pairing (scoregroups, upfloats, PAB, board order) and
  are shown on the pairing list; the standings never show them.
"""

from __future__ import annotations

from django.utils.translation import gettext

from .. import engine
from ..engine.acceleration import accelerated_rounds, is_baku, ranges
from ..engine.trf import acceleration_records
from ..models import AccelerationMethod, Player, Tournament


def group_a_last(t: Tournament) -> Player | None:
    """The last player of GA: the fixed one once round 1 is published, else the one
    the rules would fix now; None when the tournament is not accelerated."""
    if t.acceleration != AccelerationMethod.BAKU:
        return None
    if t.acceleration_last_ga_id is not None and t.rounds_published() >= 1:
        return t.acceleration_last_ga
    return _last_by_the_rules(t)


def _last_by_the_rules(t: Tournament) -> Player | None:
    """2.1: the ``2 * ceil(N / 4)``-th of the N players to be paired in round 1."""
    absent = t.absent_ids(1)
    present = [p for p in t.player_set.order_by("tpn")
               if p.pk not in absent and p.tpn is not None and p.entered_by(1)]
    if not present:
        return None
    return present[min(engine.group_a_size(len(present)), len(present)) - 1]


def group_a(t: Tournament, players: list[Player] | None = None) -> frozenset[int]:
    """Ids of the GA players (pairing number at or above the last GA player's)."""
    last = group_a_last(t)
    if last is None:
        return frozenset()
    players = players if players is not None else list(t.player_set.all())
    limit = next((p.tpn for p in players if p.pk == last.pk), None)
    if limit is None:
        limit = Player.objects.filter(pk=last.pk).values_list("tpn", flat=True).first()
    if limit is None:
        return frozenset()
    return frozenset(p.pk for p in players if p.tpn is not None and p.tpn <= limit)


def virtual_points(t: Tournament, players: list[Player] | None = None) -> tuple[engine.Acceleration, ...]:
    """The engine's :class:`~pairing.engine.Acceleration` records of ``t`` (empty
    when it is not accelerated)."""
    ga = group_a(t, players)
    return engine.baku_acceleration(t.rounds, ga) if ga else ()


def round_virtual_points(t: Tournament, round_number: int) -> dict[int, object]:
    """``{player id: virtual points}`` carried into ``round_number`` (only players who
    have some), as the engine counts them."""
    records = virtual_points(t)
    players = set().union(*(a.players for a in records)) if records else set()
    return {pid: v for pid in players if (v := engine.virtual_points(records, pid, round_number))}


def fix_group_a(t: Tournament) -> None:
    """Round 1 is being published: the last GA player is fixed from now on."""
    last = _last_by_the_rules(t) if t.acceleration == AccelerationMethod.BAKU else None
    Tournament.objects.filter(pk=t.pk).update(acceleration_last_ga=last)


def round_note(t: Tournament, round_number: int) -> str:
    """What the pairing list of ``round_number`` says about acceleration ('' if none)."""
    if t.acceleration != AccelerationMethod.BAKU:
        return ""
    full, last = accelerated_rounds(t.rounds)
    if round_number > last:
        return ""
    points = gettext("1 virtual point") if round_number <= full else gettext("½ virtual point")
    return gettext("Baku acceleration (C.04.5.1): group A players paired with %(points)s added to their score "
                   "(accelerated rounds 1–%(last)s); virtual points never count in the standings.") % {
        "points": points, "last": last}


def trf_records(t: Tournament, tpn: dict[int, int]) -> list[str]:
    """TRF-2026 ``250`` records (player ids as starting ranks = pairing numbers)."""
    return acceleration_records(
        engine.Acceleration(a.points, a.first_round, a.last_round, frozenset(tpn[i] for i in a.players))
        for a in virtual_points(t)
    )


def read_trf(data, total_rounds: int, problems: list) -> int | None:
    """The starting rank of the last GA player in a file's ``250`` records, or None
    without records; a record set that is not Baku acceleration is a problem."""
    records = data.acceleration()
    if not records:
        return None
    if not is_baku(total_rounds, records):
        full, last = accelerated_rounds(total_rounds)
        problems.append((0, 0, gettext("The file's 250 records are not Baku acceleration (C.04.5.1) as this program "
                                       "pairs it: one range of players from 1, 1 virtual point in rounds 1-%(full)s "
                                       "and ½ in rounds %(next)s-%(last)s of %(total)s.") % {
            "full": full, "next": full + 1, "last": last, "total": total_rounds}))
        return None
    ids = sorted(records[0].players)
    if ids != list(range(1, len(ids) + 1)):
        problems.append((0, 0, gettext("The file's 250 records do not start group A at player 1.")))
        return None
    return ids[-1]


def imported(data, total_rounds: int, played: int, problems: list) -> tuple[bool, int | None]:
    """Whether a file being imported is Baku-accelerated (``250`` records, or a 192 code
    naming Baku), and the starting rank of the last GA player the tournament fixes: the
    one the rules give (:meth:`~pairing.engine.trf.TrfTournament.group_a_by_the_rules`,
    readings 20-21), whatever the file's records say -- :func:`imported_changes` says
    so at Level 3 when they differ.  None before round 1 is played (it is fixed when
    round 1 is published).  A record set that is not Baku's is a problem."""
    records = data.acceleration()
    if records and read_trf(data, total_rounds, problems) is None:
        return False, None
    if not records and not data.baku_coded():
        return False, None
    return True, data.group_a_by_the_rules().last if played else None


def imported_changes(data, total_rounds: int, played: int) -> list[str]:
    """The Level-3 adjustments of :func:`imported`, with the figures (VCL4THP Q31): the
    file's ``250`` records name another group A than the rules give, or its 192 names
    Baku acceleration without any ``250`` record."""
    records = data.acceleration()
    if not (records or data.baku_coded()) or (records and not is_baku(total_rounds, records)):
        return []
    rules = data.group_a_by_the_rules()
    if records and records[0].players == rules.players:
        return []
    absent = sorted(data.absent_in(1))
    figures = gettext("%(n)s players paired in round 1%(absent)s; group A is the first 2·⌈%(n)s/4⌉ = %(size)s of them, "
                      "up to player %(last)s, and everyone ranked above him: players %(group)s (C.04.5.1; a player not "
                      "paired in round 1 is not counted)") % {
        "n": rules.paired, "size": rules.size, "last": rules.last, "group": ranges(rules.players),
        "absent": gettext(" (not %(ids)s)") % {"ids": ranges(absent)} if absent else ""}
    if not played:
        head = (gettext("The file's 250 records put players %(file)s in group A.") % {"file": ranges(records[0].players)}
                if records else gettext("The file's type (192) names Baku acceleration but it has no 250 record: the "
                                        "tournament is Baku-accelerated."))
        return [head + " " + gettext("Group A is fixed by the rules when round 1 is published; as the file stands: "
                                     "%(figures)s.") % {"figures": figures}]
    if records:
        return [gettext("The file's 250 records put players %(file)s in group A; the rules give %(figures)s. The "
                        "tournament takes the rules' group A, and the file's rounds are checked with it.")
                % {"file": ranges(records[0].players), "figures": figures}]
    return [gettext("The file's type (192) names Baku acceleration but it has no 250 record: the tournament takes the "
                    "acceleration the rules give, %(figures)s; the file's rounds are checked with it.")
            % {"figures": figures}]
