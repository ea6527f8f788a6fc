"""Dutch colour rules (C.04.3, 2026 text): the colour criteria of a pair ([C10]-[C13]) and
the colour allocation of Article 5.2.  O(R) per pair (5.2.3 walks back the histories).

5.2, for each pair, with descending priority:
5.2.1 grant both colour preferences (a player without one takes the other colour);
5.2.2 grant the stronger preference (absolute > strong > mild); if both are absolute
      (topscorers), the wider colour difference;
5.2.3 alternate the colours to the most recent round in which one player had White and
      the other Black (played games only, aligned at the latest: C.04.2 Art. 3.4);
5.2.4 grant the preference of the higher ranked player;
5.2.5 neither has a preference: the higher ranked player gets the initial colour if
      their TPN is odd, the other colour if even.
"""

from __future__ import annotations

from ..model import Colour, PreferenceStrength
from .state import DutchPlayerState

_STRENGTH = {
    PreferenceStrength.ABSOLUTE: "absolute",
    PreferenceStrength.STRONG: "strong",
    PreferenceStrength.MILD: "mild",
}


def who(p: DutchPlayerState) -> str:
    return f"{p.id}" if p.id == p.tpn else f"{p.id} (TPN {p.tpn})"


def ranks_higher(a: DutchPlayerState, b: DutchPlayerState) -> bool:
    """1.2: more (pairing) points, then the smaller TPN."""
    return (a.score, -a.tpn) > (b.score, -b.tpn)


def _strong(p: DutchPlayerState) -> bool:
    """Strong and not absolute (1.7.2)."""
    return p.strength is PreferenceStrength.STRONG


def same_preference(a: DutchPlayerState, b: DutchPlayerState) -> bool:
    return a.preference is not None and a.preference is b.preference


def c10_violation(a: DutchPlayerState, b: DutchPlayerState) -> bool:
    """[C10]: one of the two ends with a colour difference beyond +-2 (both already at
    +-2 or more on the same side; only topscorers can meet so, [C3])."""
    return same_preference(a, b) and a.imbalance > 1 and b.imbalance > 1


def c11_violation(a: DutchPlayerState, b: DutchPlayerState) -> bool:
    """[C11]: one of the two gets the same colour a third time in a row: both absolute
    for one colour, and the one 5.2.2 makes yield (the smaller colour difference) has
    had the other colour twice; with equal differences, both had it twice."""
    if not (same_preference(a, b) and a.absolute and b.absolute):
        return False
    if a.imbalance == b.imbalance:
        return a.repeated is not None and a.repeated is b.repeated
    loser = b if a.imbalance > b.imbalance else a
    return loser.repeated is not None and loser.repeated is not a.preference


def c12_violation(a: DutchPlayerState, b: DutchPlayerState) -> bool:
    """[C12]: one of the two does not get their colour preference."""
    return same_preference(a, b)


def c13_violation(a: DutchPlayerState, b: DutchPlayerState) -> bool:
    """[C13]: a strong preference is not granted: the same preference, one strong and the
    other strong or absolute (two absolute preferences are [C10]/[C11]'s matter)."""
    if not same_preference(a, b):
        return False
    return (_strong(a) and (_strong(b) or b.absolute)) or (_strong(b) and a.absolute)


def allocate(a: DutchPlayerState, b: DutchPlayerState, initial: Colour,
             parity_tpn: dict[int, int] | None = None) -> tuple[int, int, str, str]:
    """Colours of the pair (a, b): (white id, black id, rule, reason).  ``parity_tpn``:
    the TPN 5.2.5 reads, by id, when it differs from the snapshot's (see
    :func:`pairing.engine.history.parity_tpns`)."""
    high, low = (a, b) if ranks_higher(a, b) else (b, a)

    def give(p: DutchPlayerState, colour: Colour, rule: str, reason: str) -> tuple[int, int, str, str]:
        other = b if p is a else a
        return (p.id, other.id, rule, reason) if colour is Colour.WHITE else (other.id, p.id, rule, reason)

    def text(p: DutchPlayerState) -> str:
        return f"{_STRENGTH[p.strength]} {p.preference}" if p.preference else "no preference"

    pa, pb = a.preference, b.preference
    if pa is None and pb is None:
        tpn = parity_tpn.get(high.id, high.tpn) if parity_tpn else high.tpn
        colour = initial if tpn % 2 else initial.opposite
        parity = "odd" if tpn % 2 else "even"
        return give(high, colour, "5.2.5",
                    f"neither has a colour preference; higher ranked {who(high)} has {parity} TPN {tpn}, so gets "
                    f"{'the initial colour' if colour is initial else 'the opposite of the initial colour'} ({colour})")
    if pa is not pb:
        if pa is None:
            return give(b, pb, "5.2.1", f"{who(b)}'s {text(b)} granted; {who(a)} has no preference")
        if pb is None:
            return give(a, pa, "5.2.1", f"{who(a)}'s {text(a)} granted; {who(b)} has no preference")
        return give(a, pa, "5.2.1", f"both preferences granted: {who(a)} {text(a)}, {who(b)} {text(b)}")
    # the same preference
    if a.absolute or b.absolute:
        if a.absolute and b.absolute:
            if a.imbalance != b.imbalance:
                wide = a if a.imbalance > b.imbalance else b
                return give(wide, wide.preference, "5.2.2",
                            f"both absolute for {pa}; {who(wide)} has the wider colour difference "
                            f"({wide.colour_difference:+d})")
        else:
            strong = a if a.absolute else b
            return give(strong, strong.preference, "5.2.2",
                        f"both want {pa}; {who(strong)}'s absolute preference beats the other's")
    elif _strong(a) != _strong(b):
        strong = a if _strong(a) else b
        return give(strong, strong.preference, "5.2.2",
                    f"both want {pa}; {who(strong)}'s strong preference beats the other's mild one")
    ca, cb = a.colours, b.colours
    for back in range(1, min(len(ca), len(cb)) + 1):
        x, y = ca[-back], cb[-back]
        if x is not y:
            return give(a, y, "5.2.3",
                        f"both {text(a)}; {back} played game(s) back {who(a)} had {x} and {who(b)} had {y}: "
                        "colours alternate")
    return give(high, high.preference, "5.2.4",
                f"both {text(a)}, histories give no difference; higher ranked {who(high)} gets {high.preference}")
