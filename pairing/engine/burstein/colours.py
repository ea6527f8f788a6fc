"""Burstein colour rules (C.04.4.2, 2026 text): [C3] and [C8] for a pair, and the colour
allocation of Article 5.2.  O(R) per pair (5.2.4 walks back the histories).

5.2, for each pair, with descending priority:
5.2.1 both have yet to play a game: the higher ranked player (more points; equal points,
      the smaller TPN) gets the initial colour if their TPN is odd, the other colour if
      even;
5.2.2 grant both colour preferences (a player without one takes the other colour);
5.2.3 grant the stronger colour preference (absolute > strong > mild);
5.2.4 alternate the colours to the most recent round in which one player had White and
      the other Black (played games only, aligned at the latest: C.04.2 Art. 3.4);
5.2.5 grant the colour preference of the higher ranked player by 1.8 (the Index).
"""

from __future__ import annotations

from ..model import Colour, PreferenceStrength
from .state import BursteinPlayerState

_STRENGTH = {
    PreferenceStrength.ABSOLUTE: "absolute",
    PreferenceStrength.STRONG: "strong",
    PreferenceStrength.MILD: "mild",
}


def who(p: BursteinPlayerState) -> str:
    return f"{p.id}" if p.id == p.tpn else f"{p.id} (TPN {p.tpn})"


def ranks_higher_by_points(a: BursteinPlayerState, b: BursteinPlayerState) -> bool:
    """5.2.1 (and board order): more (pairing) points, then the smaller TPN."""
    return (a.score, -a.tpn) > (b.score, -b.tpn)


def ranks_higher(a: BursteinPlayerState, b: BursteinPlayerState) -> bool:
    """1.8: the higher Index (Buchholz, then Sonneborn-Berger), then the smaller TPN."""
    return a.ranking_key < b.ranking_key


def c3_forbids(a: BursteinPlayerState, b: BursteinPlayerState) -> bool:
    """[C3]: the same absolute colour preference (no exception for anyone)."""
    return a.absolute and b.absolute and a.preference is b.preference


def c8_violation(a: BursteinPlayerState, b: BursteinPlayerState) -> bool:
    """[C8]: one of the two does not get their colour preference (both have the same one;
    a player without a preference never counts, 1.5.4)."""
    return a.preference is not None and a.preference is b.preference


def allocate(a: BursteinPlayerState, b: BursteinPlayerState, initial: Colour,
             parity_tpn: dict[int, int] | None = None) -> tuple[int, int, str, str]:
    """Colours of the pair (a, b): (white id, black id, rule, reason).  ``parity_tpn``: the
    TPN 5.2.1 reads, by id (:func:`pairing.engine.history.parity_tpns`)."""

    def give(p: BursteinPlayerState, colour: Colour, rule: str, reason: str) -> tuple[int, int, str, str]:
        other = b if p is a else a
        return (p.id, other.id, rule, reason) if colour is Colour.WHITE else (other.id, p.id, rule, reason)

    def text(p: BursteinPlayerState) -> str:
        return f"{_STRENGTH[p.strength]} {p.preference}" if p.preference else "no preference"

    pa, pb = a.preference, b.preference
    if pa is None and pb is None:
        high = a if ranks_higher_by_points(a, b) else b
        tpn = parity_tpn.get(high.id, high.tpn) if parity_tpn else high.tpn
        colour = initial if tpn % 2 else initial.opposite
        parity = "odd" if tpn % 2 else "even"
        return give(high, colour, "5.2.1",
                    f"neither has played a game; higher ranked {who(high)} (points, then TPN) has {parity} TPN "
                    f"{tpn}, so gets {'the initial colour' if colour is initial else 'the opposite of the initial colour'}"
                    f" ({colour})")
    if pa is not pb:
        if pa is None:
            return give(b, pb, "5.2.2", f"{who(b)}'s {text(b)} granted; {who(a)} has no preference")
        if pb is None:
            return give(a, pa, "5.2.2", f"{who(a)}'s {text(a)} granted; {who(b)} has no preference")
        return give(a, pa, "5.2.2", f"both preferences granted: {who(a)} {text(a)}, {who(b)} {text(b)}")
    if a.strength is not b.strength:
        strong = a if a.strength > b.strength else b
        weak = b if strong is a else a
        return give(strong, strong.preference, "5.2.3",
                    f"both want {pa}; {who(strong)}'s {_STRENGTH[strong.strength]} preference beats {who(weak)}'s "
                    f"{_STRENGTH[weak.strength]} one")
    ca, cb = a.colours, b.colours
    for back in range(1, min(len(ca), len(cb)) + 1):
        x, y = ca[-back], cb[-back]
        if x is not y:
            return give(a, y, "5.2.4",
                        f"both {text(a)}; {back} played game(s) back {who(a)} had {x} and {who(b)} had {y}: "
                        "colours alternate")
    high = a if ranks_higher(a, b) else b
    return give(high, high.preference, "5.2.5",
                f"both {text(a)}, histories give no difference; {who(high)}, higher ranked by the Index (1.8), gets "
                f"{high.preference}")
