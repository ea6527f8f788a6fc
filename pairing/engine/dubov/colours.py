"""Colour allocation, Dubov Article 5 (same numbering in the 2026 text), private.

:func:`allocate` applies 5.2.1 .. 5.2.5 in order to one pair and says which rule
decided and why.  O(R) per pair (5.2.4 walks back through the played colours).
"""

from __future__ import annotations

from ..model import Colour, DubovRules, PreferenceStrength
from .state import PlayerState

_RULES_2025 = DubovRules()

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


def allocate(a: PlayerState, b: PlayerState, initial: Colour, rules: DubovRules = _RULES_2025,
             pair_number: int | None = None) -> tuple[int, int, str, str]:
    """Colours for the pair (a, b): returns (white id, black id, rule, reason).

    ``rules.first_round_by_pair`` (1997 5): in round 1 (``pair_number`` given, from 1) the
    odd pairs take the colours of pair 1, whose higher ranked player gets the initial
    colour, the even pairs the others; two players yet to play in a later round have no
    rule of their own in 1997 and go on to the rules below (docs/dubov-1997.md).
    ``rules.colours_by_aro`` (1997 3, the last two lines): after 5.2.4, White to the
    higher ARO, then to the lower rating; 5.2.5 only when both are equal (reading)."""
    high, low = (a, b) if ranks_higher(a, b) else (b, a)

    def give(p: PlayerState, colour: Colour, rule: str, reason: str) -> tuple[int, int, str, str]:
        other = b if p is a else a
        if colour is Colour.WHITE:
            return p.id, other.id, rule, reason
        return other.id, p.id, rule, reason

    # 1997 5: round 1, colours by pair number
    if rules.first_round_by_pair and pair_number is not None and a.games_played == 0 and b.games_played == 0:
        colour = initial if pair_number % 2 else initial.opposite
        return give(high, colour, "5 (1997)",
                    f"round 1 (rules of 1997): pair {pair_number} is {'odd' if pair_number % 2 else 'even'}, so "
                    f"{who(high)} of the upper half gets {'the initial colour' if colour is initial else 'the opposite of the initial colour'} ({colour})")
    # 5.2.1 both have yet to play a game
    if not rules.first_round_by_pair and a.games_played == 0 and b.games_played == 0:
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
    if rules.colours_by_aro:
        # 1997 3: "assign white to the player with the higher ARO", then "with the lower R"
        aro_a, aro_b = (a.aro_exact, b.aro_exact) if rules.aro_unrounded else (a.aro, b.aro)
        if aro_a != aro_b:
            hi = a if aro_a > aro_b else b
            return give(hi, Colour.WHITE, "3 (1997)",
                        f"both {_pref_text(a)}, histories give no difference; White to the higher ARO, "
                        f"{who(hi)} (rules of 1997)")
        if a.rating != b.rating:
            lo = a if a.rating < b.rating else b
            return give(lo, Colour.WHITE, "3 (1997)",
                        f"both {_pref_text(a)}, histories and AROs give no difference; White to the lower rating, "
                        f"{who(lo)} {lo.rating} (rules of 1997)")
    # 5.2.5 the higher ranked player's preference
    return give(high, high.preference.colour, "5.2.5",
                f"both {_pref_text(a)}, histories give no difference; higher ranked {who(high)} "
                f"({high.score} pts) gets {high.preference.colour}")
