"""The rule checks on a draft (the warnings its page lists and a change by hand asks to
confirm): rematches, forbidden pairs, colour limits, both players against their due
colour, the same absolute preference on a board, PAB eligibility; each system's own
figures.  The draft's full list is computed once per state and shared."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import translation
from django.utils.translation import gettext as _

from .. import engine
from ..engine import Colour, Snapshot
from ..models import Round, namesakes
from .snapshot import build_snapshot


@dataclass(frozen=True)
class _Figures:
    """What the draft's rule checks read of a player, whatever the system."""

    colour_difference: int
    colours: tuple[Colour, ...]
    due: Colour | None  # the colour preference (None: no played game, Dutch 1.7.4)
    absolute: bool
    games_played: int
    pab_eligible: bool
    topscorer: bool  # Dutch 1.8: the last round's topscorers, exempt from [C3] and the colour limits


def _figures(snapshot: Snapshot) -> dict[int, _Figures]:
    """The system's own figures of every player: Dubov's (1.5), the Dutch system's (1.6-1.8;
    a player without a game has no preference there, Dubov gives one Black) or the Burstein
    system's (1.5, the Dutch words; no topscorers: its [C3] has no exception, and its
    seeding rounds, paired by the Dutch rules, are never the last round)."""
    if snapshot.system is engine.System.BURSTEIN:
        return {
            pid: _Figures(st.colour_difference, st.colours, st.preference, st.absolute, st.games_played,
                          st.pab_eligible, False)
            for pid, st in engine.burstein_states(snapshot).items()
        }
    if snapshot.system is engine.System.DUTCH:
        return {
            pid: _Figures(st.colour_difference, st.colours, st.preference, st.absolute, st.games_played,
                          st.pab_eligible, st.topscorer)
            for pid, st in engine.dutch_states(snapshot).items()
        }
    # Dubov: the colour figures of 1.5 and C2 alone, read from each history as
    # engine.player_states reads them (its ARO, upfloats and scores are not checked here,
    # and at 9,999 players x 41 rounds they were three quarters of the draft page's time)
    out = {}
    absolute = engine.PreferenceStrength.ABSOLUTE
    for p in snapshot.players:
        cols = engine.played_colours(p.history)
        pref = engine.colour_preference(p.history)
        out[p.id] = _Figures(sum(1 if c is Colour.WHITE else -1 for c in cols), cols, pref.colour,
                             pref.strength == absolute, len(cols), engine.pab_eligible(p.history, snapshot.points),
                             False)
    return out


def draft_warnings(rnd: Round, snapshot: Snapshot | None = None, revision: int | None = None) -> list[str]:
    """:func:`warnings_for` the whole draft, computed once per state of the tournament
    (its revision, ``revision`` when the caller read it: any change of the draft or of
    what it was paired from moves it) and language, and shared by every page of the
    draft's boards and every arbiter.  ``snapshot``: the tournament before the round,
    when the caller has built it already."""
    from ..computed import once, tournament_key

    t = rnd.tournament
    key = tournament_key(t, "draft-warnings", rnd.pk, t.revision if revision is None else revision,
                         translation.get_language())
    return once(key, lambda: warnings_for(rnd, snapshot=snapshot))[0]


def warnings_for(rnd: Round, player_ids: list[int] | None = None, snapshot: Snapshot | None = None) -> list[str]:
    """Rule checks on a draft: rematches, forbidden pairs, colour limits, same absolute
    preference on a board, PAB eligibility.  Limited to the boards of ``player_ids`` when given.
    ``snapshot``: the tournament before the round, when the caller has built it already.

    The figures are the tournament's system's.  Dutch [C3] keeps only non-topscorers with
    one absolute preference apart: on a board with a topscorer of the last round (1.8)
    neither the colour limits nor the same absolute preference is a breach ([C10], [C11]
    only minimise them)."""
    t = rnd.tournament
    if snapshot is None:
        snapshot = build_snapshot(t, rnd.number)
    states = _figures(snapshot)
    by_id = {p.id: p for p in snapshot.players}
    clashes = namesakes(t.pk)
    shown = {p.pk: p.name_among(clashes) for group in clashes.values() for p in group}

    def name(p) -> str:  # the engine's player: its name, told apart from a namesake's
        return shown.get(p.id, p.name)

    out: list[str] = []
    for board, white_id, black_id in rnd.game_set.order_by("board").values_list("board", "white_id", "black_id"):
        if player_ids is not None and white_id not in player_ids and black_id not in player_ids:
            continue
        w, b = by_id[white_id], by_id[black_id]
        if any(e.opponent == b.id and e.paired for e in w.history):
            out.append(_("Board %(n)s: %(a)s and %(b)s have met before (rematch, C1).") % {"n": board, "a": name(w), "b": name(b)})
        if frozenset((w.id, b.id)) in snapshot.forbidden:
            out.append(
                _("Board %(n)s: %(a)s and %(b)s are a forbidden pair (the arbiters' decision; see Forbidden pairs).")
                % {"n": board, "a": name(w), "b": name(b)}
            )
        sw, sb = states[w.id], states[b.id]
        exempt = sw.topscorer or sb.topscorer
        for p, colour in () if exempt else ((w, Colour.WHITE), (b, Colour.BLACK)):
            st = states[p.id]
            cd = st.colour_difference + (1 if colour is Colour.WHITE else -1)
            last_two = st.colours[-2:]
            if abs(cd) > 2:
                out.append(_("Board %(n)s: %(name)s would reach a colour difference of %(cd)s (C3).") % {"n": board, "name": name(p), "cd": f"{cd:+d}"})
            elif len(last_two) == 2 and all(c is colour for c in last_two):
                out.append(_("Board %(n)s: %(name)s would get %(colour)s three times in a row (C3).") % {"n": board, "name": name(p), "colour": _(str(colour))})
        if sw.games_played and sb.games_played and sw.due is Colour.BLACK and sb.due is Colour.WHITE:
            out.append(
                _("Board %(n)s: %(a)s and %(b)s both get the colour opposite to their due "
                  "(%(a)s is due Black, %(b)s White).") % {"n": board, "a": name(w), "b": name(b)}
            )
        if sw.absolute and sb.absolute and sw.due is sb.due and not exempt:
            out.append(_("Board %(n)s: %(a)s and %(b)s both have an absolute preference for %(colour)s.") % {"n": board, "a": name(w), "b": name(b), "colour": _(str(sw.due))})
    pab = rnd.pab()
    if pab is not None and (player_ids is None or pab.player_id in player_ids):
        if not states[pab.player_id].pab_eligible:
            out.append(
                _("PAB: %(name)s is not eligible for the pairing-allocated bye "
                  "(already had a PAB, a forfeit win or a full-point unplayed round; C2).") % {"name": pab.player.name_among(clashes)}
            )
    return out
