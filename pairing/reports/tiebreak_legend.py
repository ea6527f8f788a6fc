"""The tie-break legend of the standings in the page's language: each code's one-line
explanation, as ``TieBreak.description`` gives it in English (pairing.tiebreaks knows no
Django; tests/web/test_translation.py checks that the two agree word for word in English)."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from ..tiebreaks import TieBreak
from ..tiebreaks.definitions import LIMITS

_BASE = {
    "BH": _("Buchholz: sum of the opponents' scores (C.07 8.1)"),
    "FB": _("Fore Buchholz: Buchholz with every last-round game counted as a draw (C.07 8)"),
    "AOB": _("Average of the Buchholz of the opponents met over the board (C.07 8.2)"),
    "SB": _("Sonneborn-Berger: sum of each opponent's score times the points scored against them (C.07 9.1)"),
    "KS": _("Koya: points scored against opponents with at least half the maximum score (C.07 9.2)"),
    "DE": _("Direct encounter: result of the games among the tied players, as a count of tied players ranked below (C.07 6)"),
    "WIN": _("Number of rounds scored as a win, with or without playing (C.07 7)"),
    "WON": _("Number of games won over the board (C.07 7)"),
    "BPG": _("Number of games played over the board with Black (C.07 7)"),
    "BWG": _("Number of games won over the board with Black (C.07 7)"),
    "GE": _("Number of rounds the player was available to play (games one elected to play, C.07 7)"),
    "REP": _("Rounds one elected to play: the rounds the player was available to play (C.07 7, 2026; formerly GE)"),
    "EXT": _("A tie-break value computed outside the program and typed in by the arbiter"),
    "STD": _("Standard points: the score counted 1 for a win, ½ for a draw, 0 for a loss, whatever the point system (C.07 7, 2026)"),
    "PS": _("Sum of progressive scores: the running score after each round, added up (C.07 7)"),
    "ARO": _("Average rating of the opponents met over the board (C.07 10.1)"),
    "TPR": _("Tournament performance rating: ARO plus the FIDE dp for the score over the board (C.07 10.2)"),
    "APRO": _("Average of the opponents' performance ratings (C.07 10.4)"),
    "PTP": _("Perfect tournament performance: lowest rating whose expected score reaches the score over the board (C.07 10.3)"),
    "APPO": _("Average of the opponents' perfect performances (C.07 10.5)"),
    "RTNG": _("The player's rating: the higher ranks first (C.07, round robins and team events)"),
    "TPN": _("The tournament pairing number: the lower ranks first (C.07)"),
}
_LIMITS = {
    1: _(", the limit raised by half a point (Limit modifier, KS/L1)"),
    2: _(", the limit raised by one point (Limit modifier, KS/L2)"),
    -1: _(", the limit lowered by half a point (Limit modifier, KS/L-1)"),
}
_REVERSED = {
    TieBreak.RTNG_R: _("The player's rating: the lower ranks first (C.07, round robins and team events)"),
    TieBreak.TPN_R: _("The tournament pairing number: the higher ranks first (C.07)"),
}


def describe(tb: TieBreak) -> str:
    """``tb``'s explanation for the standings legend, translated."""
    if tb in _REVERSED:
        return str(_REVERSED[tb])
    text = str(_BASE[tb.base])
    if tb is TieBreak.DE_P:
        return text + gettext("; forfeited games count as played against the scheduled opponent (/P)")
    if tb in LIMITS:
        return text + str(_LIMITS[LIMITS[tb]])
    low, high = _cuts(tb)
    if low and high:
        return text + gettext(", without the %(low)s lowest and the %(high)s highest values (Median-%(low)s)") % {
            "low": low, "high": high}
    if low:
        return text + ngettext(", without the %(n)s least significant value (Cut-%(n)s)",
                               ", without the %(n)s least significant values (Cut-%(n)s)", low) % {"n": low}
    return text


def _cuts(tb: TieBreak) -> tuple[int, int]:
    _base, _, modifier = tb.value.partition("-")
    if not modifier or modifier in ("R", "P") or modifier[0] == "L":
        return 0, 0
    if modifier[0] == "C":
        return int(modifier[1:]), 0
    return int(modifier[1:]), int(modifier[1:])
