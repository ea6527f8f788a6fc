"""Colour allocation, Dubov Article 5 (same numbering in the 2026 text), private.

:func:`allocate` applies 5.2.1 .. 5.2.5 in order to one pair and says which rule
decided and why.  O(R) per pair (5.2.4 walks back through the played colours).
"""

from __future__ import annotations

from ..model import Colour, PreferenceStrength
from .state import PlayerState

_STRENGTH = {
    PreferenceStrength.ABSOLUTE: "absolute",
    PreferenceStrength.STRONG: "strong",
    PreferenceStrength.MILD: "mild",
}


def who(p: PlayerState) -> str:
    """How a player is named in explanations: the id, and the TPN when it differs."""
    return f"{p.id}" if p.id == p.tpn else f"{p.id} (TPN {p.tpn})"


def ranks_higher(a: PlayerState, b: PlayerState) -> bool:
    """D10 / 5.2.1: more points, then the higher position (smaller TPN)."""
    return (a.score, -a.tpn) > (b.score, -b.tpn)


def _pref_text(p: PlayerState) -> str:
    return f"{_STRENGTH[p.preference.strength]} {p.preference.colour}"


def allocate(a: PlayerState, b: PlayerState, initial: Colour) -> tuple[int, int, str, str]:
    """Colours for the pair (a, b): returns (white id, black id, rule, reason)."""
    high, low = (a, b) if ranks_higher(a, b) else (b, a)

    def give(p: PlayerState, colour: Colour, rule: str, reason: str) -> tuple[int, int, str, str]:
        other = b if p is a else a
        if colour is Colour.WHITE:
            return p.id, other.id, rule, reason
        return other.id, p.id, rule, reason

    # 5.2.1 both have yet to play a game
    if a.games_played == 0 and b.games_played == 0:
        colour = initial if high.tpn % 2 else initial.opposite
        parity = "odd" if high.tpn % 2 else "even"
        return give(high, colour, "5.2.1",
                    f"neither has played; higher ranked {who(high)} has {parity} TPN {high.tpn}, "
                    f"so gets {'the initial colour' if colour is initial else 'the opposite of the initial colour'} ({colour})")
    pa, pb = a.preference, b.preference
    # 5.2.2 both preferences can be granted
    if pa.colour is not pb.colour:
        return give(a, pa.colour, "5.2.2",
                    f"both preferences granted: {who(a)} {_pref_text(a)}, {who(b)} {_pref_text(b)}")
    # 5.2.3 the stronger preference
    if pa.strength != pb.strength:
        strong, weak = (a, b) if pa.strength > pb.strength else (b, a)
        return give(strong, strong.preference.colour, "5.2.3",
                    f"both want {pa.colour}; {who(strong)}'s {_pref_text(strong)} beats "
                    f"{who(weak)}'s {_STRENGTH[weak.preference.strength]} preference")
    # 5.2.4 alternate from the most recent round with different colours
    ca, cb = a.colours, b.colours
    for back in range(1, min(len(ca), len(cb)) + 1):
        x, y = ca[-back], cb[-back]
        if x is not y:
            return give(a, x.opposite, "5.2.4",
                        f"both {_pref_text(a)}; {back} game(s) back {who(a)} had {x} and {who(b)} had {y}: "
                        "colours alternate")
    # 5.2.5 the higher ranked player's preference
    return give(high, high.preference.colour, "5.2.5",
                f"both {_pref_text(a)}, histories give no difference; higher ranked {who(high)} "
                f"({high.score} pts) gets {high.preference.colour}")
