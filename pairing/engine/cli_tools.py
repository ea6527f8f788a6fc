"""The command line's generator (``-g``, VCL4THP Q22–32) and its standings (the
checker's Q21): what ranks a file, with the app's own tie-break code.

Kept out of the pairer: only the command line (:mod:`pairing.engine.__main__`) and this
module use :mod:`pairing.tiebreaks`; the pairing code never ranks.

Generator options left unset take random values from documented ranges (Q25), drawn
from the run's seed; without ``--seed`` a fresh seed is drawn, printed on standard error
and written into the file with every value used, so ``--seed`` repeats any run (Q30).
``--fixed`` gives the unset options their fixed defaults instead (tests, benchmarks).
"""

from __future__ import annotations

import argparse
import shlex
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import TYPE_CHECKING

from .model import Colour, DubovRules, PointSystem, Result, RoundEntry, System
from .trf import DUBOV_RULES_LINE, TIEBREAK_TEXT_LINE, as_trf16, dump_trf, from_generated

if TYPE_CHECKING:
    import random

    from .generator import GeneratorConfig

# The generator, random and secrets (which bring hashlib) are imported where a run
# generates: `python -m pairing.engine -p` builds this parser too and should not pay
# for them.

# option -> (fixed default, random range); ranges are inclusive
RANDOM_RANGES: dict[str, tuple[object, tuple]] = {
    "players": (None, (8, 60)),
    "rounds": (None, (5, 11)),  # and at most players - 1
    "draw_rate": (0.3, (0.10, 0.45)),
    "forfeit_rate": (0.02, (0.0, 0.03)),
    "bye_rate": (0.03, (0.0, 0.06)),
    "withdrawal_rate": (0.01, (0.0, 0.02)),
    "late_entry_rate": (0.0, (0.0, 0.10)),
    "rating_min": (1000, (1000, 1800)),
    "rating_max": (2700, (2000, 2800)),  # and at least rating_min + 200
    "forbidden_pairs": (0, (0, 2)),
}
# --acceleration: fixed "none"; drawn "baku" in one run out of four
# drawn after the acceleration, so that the values above stay what earlier versions drew:
# requested byes of each kind (per player-round; with --bye-rate given, or --fixed, its
# 60/30/10 split instead), the share of double forfeits among the forfeited boards, odd
# scores (½-0, 0-½, 0-0 per board played), and a rating ladder in one run out of three
LATER_RANGES: dict[str, tuple[object, tuple]] = {
    # fixed 0 for a kind left out when another kind is given
    "half_bye_rate": (0.0, (0.0, 0.04)),
    "zero_bye_rate": (0.0, (0.0, 0.02)),
    "full_bye_rate": (0.0, (0.0, 0.01)),
    "double_forfeit_share": (0.1, (0.0, 0.3)),
    "odd_result_rate": (0.0, (0.0, 0.01)),
    "rating_step": (0, (1, 40)),  # 0: uniform ratings; drawn at most (rating_max - rating_min) / players
    "rating_spread": (0, (0, 100)),
}
BYE_SPLIT = (0.6, 0.3, 0.1)  # H, Z, F of a single --bye-rate
TIEBREAK_LISTS = ("BH/C1, BH, SB", "BH/C1, BH/M1, SB, DE", "ARO/C1, BH/C1, SB", "DE, WIN, BH/C1, SB", "SB, BH, PS")
FIXED_TIEBREAKS = "BH/C1, BH, SB"


@dataclass(frozen=True)
class Resolved:
    """Every generator value of a run, given or drawn."""

    seed: int
    values: dict
    tiebreaks: str
    drawn_seed: bool
    fixed: bool = False
    system: str = "dubov"
    rules: int | None = None  # --rules: the Dubov rules of that year (1997); None: 2025

    def command(self, fast: bool, played: int | None, trf16: bool = False) -> str:
        """The command line that repeats this run."""
        parts = [f"python -m pairing.engine --{self.system} -g", f"--seed {self.seed}"]
        if self.rules is not None:
            parts.insert(1, f"--rules {self.rules}")
        for name, value in self.values.items():
            if name == "ratings":
                if value is not None:
                    parts.append(f"--ratings {','.join(map(str, value))}")
                continue
            if value is None:
                continue
            parts.append(f"--{name.replace('_', '-')} {value}")
        parts.append(f"--tiebreaks {shlex.quote(self.tiebreaks)}")
        if played is not None:
            parts.append(f"--played {played}")
        if fast:
            parts.append("--fast")
        if trf16:
            parts.append("--trf16")
        if self.fixed:
            parts.append("--fixed")  # the results' model (the logistic expectation) goes with it
        return " ".join(parts)


def resolve(args) -> Resolved:
    """The run's values: those given, else fixed defaults (``--fixed``), else drawn from
    the seed within :data:`RANDOM_RANGES`."""
    import random
    import secrets

    drawn_seed = args.seed is None
    seed = secrets.randbelow(2**31) if drawn_seed else args.seed
    rng = random.Random(f"options:{seed}")  # not the tournament's own stream
    values: dict = {}

    def take(name: str):
        given = getattr(args, name)
        fixed, (lo, hi) = RANDOM_RANGES[name]
        if given is not None:
            return given
        if args.fixed:
            return fixed
        return rng.randint(lo, hi) if isinstance(lo, int) and isinstance(hi, int) else round(rng.uniform(lo, hi), 3)

    ratings = tuple(args.ratings) if args.ratings else None
    values["players"] = len(ratings) if ratings and args.players is None else take("players")
    if values["players"] is None:
        raise ValueError("--fixed needs --players (or --ratings) and --rounds")
    if args.rounds is None and not args.fixed:
        hi = max(1, min(RANDOM_RANGES["rounds"][1][1], values["players"] - 1))
        values["rounds"] = rng.randint(min(RANDOM_RANGES["rounds"][1][0], hi), hi)
    else:
        values["rounds"] = take("rounds")
    if values["rounds"] is None:
        raise ValueError("--fixed needs --players (or --ratings) and --rounds")
    for name in ("draw_rate", "forfeit_rate", "bye_rate", "withdrawal_rate", "late_entry_rate", "rating_min"):
        values[name] = take(name)
    if args.rating_max is None and not args.fixed:
        values["rating_max"] = rng.randint(max(values["rating_min"] + 200, 2000), 2800)
    else:
        values["rating_max"] = take("rating_max")
    values["forbidden_pairs"] = take("forbidden_pairs")
    values["initial_colour"] = args.initial_colour or (None if args.fixed else rng.choice(["white", "black"]))
    values["ratings"] = ratings
    tiebreaks = args.tiebreaks or (FIXED_TIEBREAKS if args.fixed else rng.choice(TIEBREAK_LISTS))
    # drawn last, so that the values above stay what earlier versions drew for a seed
    given = getattr(args, "acceleration", None)
    values["acceleration"] = given or ("none" if args.fixed else rng.choice(["none", "none", "none", "baku"]))
    _resolve_later(args, rng, values)
    # given only (never drawn), so that every earlier seed's line repeats as it was
    if getattr(args, "points", None):
        values["points"] = args.points
    if getattr(args, "pab_points", None):
        values["pab_points"] = args.pab_points
    if values.get("points") and values["acceleration"] == "baku":
        raise ValueError("Baku acceleration's virtual points are written for 1-½-0 scoring: give --points or "
                         "--acceleration baku, not both")
    return Resolved(seed, values, tiebreaks, drawn_seed, bool(args.fixed), system_of(args).value,
                    getattr(args, "rules", None))


def _resolve_later(args, rng: random.Random, values: dict) -> None:
    """The options added after the first version, drawn after the others (see
    :data:`LATER_RANGES`).  Raises ValueError for options that contradict each other."""

    def drawn(name: str, digits: int = 3) -> float:
        lo, hi = LATER_RANGES[name][1]
        return round(rng.uniform(lo, hi), digits)

    def fixed(name: str):
        return LATER_RANGES[name][0]

    kinds = ("half_bye_rate", "zero_bye_rate", "full_bye_rate")
    given = [getattr(args, k, None) for k in kinds]
    if any(v is not None for v in given):
        if args.bye_rate is not None:
            raise ValueError("give --bye-rate or the rate of each kind of bye, not both")
        rates = [v if v is not None else fixed(k) if args.fixed else drawn(k) for k, v in zip(kinds, given, strict=True)]
    elif args.bye_rate is not None or args.fixed:
        rates = [round(values["bye_rate"] * share, 4) for share in BYE_SPLIT]
    else:
        weights = [rng.random() for _ in kinds]
        rates = [round(values["bye_rate"] * w / (sum(weights) or 1), 4) for w in weights]
    if sum(rates) > 1:
        raise ValueError("the byes of the three kinds add up to more than one per player and round")
    del values["bye_rate"]  # the three rates say it
    values.update(zip(kinds, rates, strict=True))

    forfeits = values["forfeit_rate"]
    double = getattr(args, "double_forfeit_rate", None)
    if double is None:
        share = (fixed("double_forfeit_share") if args.fixed or args.forfeit_rate is not None
                 else drawn("double_forfeit_share"))
        double = round(forfeits * share, 4)
    elif double > forfeits:
        raise ValueError("--double-forfeit-rate counts boards among the forfeited ones: it cannot exceed --forfeit-rate")
    values["double_forfeit_rate"] = double
    odd = getattr(args, "odd_result_rate", None)
    values["odd_result_rate"] = odd if odd is not None else fixed("odd_result_rate") if args.fixed else drawn("odd_result_rate")

    step, spread = getattr(args, "rating_step", None), getattr(args, "rating_spread", None)
    if spread is not None and not step:
        raise ValueError("--rating-spread goes with a --rating-step of 1 or more")
    if step and values["ratings"] is not None:
        raise ValueError("give --ratings or --rating-step, not both")
    if step is None and values["ratings"] is None:
        step = fixed("rating_step")  # 0: uniform between --rating-min and --rating-max
        if not args.fixed and rng.random() < 1 / 3:
            widest = (values["rating_max"] - values["rating_min"]) // max(1, values["players"])
            step = rng.randint(1, max(1, min(LATER_RANGES["rating_step"][1][1], widest)))
            spread = rng.randint(*LATER_RANGES["rating_spread"][1])
    values["rating_step"] = step
    values["rating_spread"] = (spread or 0) if step else None


def add_generator_arguments(ap: argparse.ArgumentParser, rate, positive, ratings) -> None:
    """The ``-g`` options (``rate``, ``positive``, ``ratings``: the command line's types)."""
    g = ap.add_argument_group(
        "generator (-g)",
        "Options left out take random values from the run's seed (see pairing/engine/cli_tools.py "
        "for the ranges), or with --fixed their fixed defaults; the file's ### line repeats the run.",
    )
    g.add_argument("--players", type=positive)
    g.add_argument("--rounds", type=positive, help="rounds declared (142)")
    g.add_argument("--played", type=int, help="rounds to play (default: all)")
    g.add_argument("--seed", type=int, help="default: a fresh one, printed on standard error and written in the file")
    g.add_argument("--draw-rate", type=rate)
    g.add_argument("--forfeit-rate", type=rate, help="boards forfeited, by one player or both")
    g.add_argument("--double-forfeit-rate", type=rate,
                   help="boards forfeited by both players (part of --forfeit-rate; default a tenth of it)")
    g.add_argument("--odd-result-rate", type=rate, help="boards played scored ½-0, 0-½ or 0-0")
    g.add_argument("--bye-rate", type=rate,
                   help="requested byes per player and round: half-point 60 %%, zero-point 30 %%, full-point 10 %%")
    g.add_argument("--half-bye-rate", type=rate, help="requested half-point byes per player and round")
    g.add_argument("--zero-bye-rate", type=rate, help="requested zero-point byes per player and round")
    g.add_argument("--full-bye-rate", type=rate,
                   help="requested full-point byes per player and round (the pairing-allocated bye has no rate: it "
                   "follows from an odd number of players present)")
    g.add_argument("--withdrawal-rate", type=rate)
    g.add_argument("--late-entry-rate", type=rate)
    g.add_argument("--rating-min", type=positive)
    g.add_argument("--rating-max", type=positive)
    g.add_argument("--rating-step", type=int,
                   help="ratings as a ladder: --rating-max for the first player, this much less for each next "
                   "(0: drawn uniformly between --rating-min and --rating-max; default: that, or a ladder one run "
                   "in three)")
    g.add_argument("--rating-spread", type=int, help="with --rating-step: standard deviation added to each rating")
    g.add_argument("--ratings", type=ratings, help="one rating per player, comma-separated (sets --players)")
    g.add_argument("--initial-colour", choices=["white", "black"], help="default: drawn from the seed")
    g.add_argument("--forbidden-pairs", type=int)
    g.add_argument(
        "--acceleration", choices=["none", "baku"],
        help="Baku acceleration (C.04.5.1), written as 250 records (default: drawn, 'baku' one run in four)",
    )
    g.add_argument("--points", help="points for a win, a draw and a loss, e.g. 3,1,0 (default 1,0.5,0); forfeit wins "
                   "and full-point byes score a win, half-point byes a draw")
    g.add_argument("--pab-points", help="points for the pairing-allocated bye (default: a win's)")
    g.add_argument("--tiebreaks", help="the tie-break list (202) that ranks the file, e.g. 'BH/C1, BH, SB'")
    g.add_argument(
        "--fixed", action="store_true",
        help="options left out take fixed defaults (needs --players and --rounds); results by the logistic "
        "expectation and a fixed draw rate instead of FIDE's rating table",
    )
    g.add_argument(
        "--fast", action="store_true", help="plausible history without the Dubov pairer (benchmarks)"
    )
    g.add_argument("--trf16", action="store_true",
                   help="write TRF-16 (XXR, XXC, XXS, XXP; no TRF-2026 records) instead of TRF-2026")
    g.add_argument("-o", dest="output", metavar="OUT.trf", help="output file (default stdout)")


def standings(t, played: int, order_text: str | None):
    """``{id: (points, rank)}`` of a :class:`~pairing.engine.trf.TrfTournament` after
    ``played`` rounds, ranked by the tie-break list ``order_text`` (202 spelling; None:
    points only).  Raises ValueError for a list that cannot be read.  The C.07 text
    is the one the file's ``###`` line names, else follows its start date (042; the 2026
    text from 1 March 2026 or without a date; :func:`tiebreak_text`); with unrated players (no rating) present the rating-based tie-breaks are
    dropped, as C.07 10 says when no other rule is published.  The rank is the first
    place of the player's tie group and the number of players sharing it:
    ``{id: (points, rank, shared)}``."""
    from pairing import tiebreaks as tb

    order = tb.parse_order(order_text) if order_text else ()
    rules = tiebreak_text(t)
    blank = RoundEntry(None, None, Result.ZERO_BYE)
    data = tb.TBTournament(
        players=tuple(
            tb.TBPlayer(id=p.id, rating=p.rating or None, tpn=p.id,
                        history=tuple(p.history[:played]) + (blank,) * max(0, played - len(p.history)))
            for p in t.players
        ),
        rounds=played,
        points=t.points,
        rules=rules,
    )
    order, _ = tb.applicable(data, order)
    rows = tb.standings(data, order)
    points = {r.id: r.points for r in rows}
    # players without a rank in the file (expelled) have no place: the others close up
    unranked = [p.id for p in t.players if p.rank is None and p.points is not None and any(q.rank for q in t.players)]
    ranked = tb.without(rows, unranked)
    shared: dict[int, int] = {}
    for r in ranked:
        shared[r.rank] = shared.get(r.rank, 0) + 1
    return {r.id: (points[r.id], r.rank, shared[r.rank]) for r in ranked} | {
        pid: (points[pid], None, 0) for pid in unranked
    }


def tiebreak_text(t) -> int:
    """The C.07 text a file's standings follow: the one its ``###`` line names
    (:data:`~pairing.engine.trf.TIEBREAK_TEXT_LINE`), else by its start date (042): the
    2023 text before 1 March 2026, the 2026 text from then on or without a date."""
    named = t.tiebreak_text()
    if named is not None:
        return named
    start = (t.start_date or "").strip().replace("-", "/").replace(".", "/")
    return 2023 if start[:10] and start[:10] < "2026/03/01" else 2026


def point_system(points: str | None, pab: str | None) -> PointSystem:
    """``--points W,D,L`` and ``--pab-points P`` as a point system (ValueError if bad)."""
    if not points and not pab:
        return PointSystem()
    try:
        win, draw, loss = (Decimal(x.strip()) for x in (points or "1,0.5,0").split(","))
        bye = Decimal(pab) if pab else win
    except (ValueError, ArithmeticError):
        raise ValueError(f"--points takes three numbers like 3,1,0 and --pab-points one number, got {points!r} "
                         f"and {pab!r}") from None
    if not loss <= draw <= win or loss < 0 or bye < 0:
        raise ValueError("--points: a win scores at least a draw, a draw at least a loss, none below 0")
    return PointSystem(win=win, draw=draw, loss=loss, forfeit_win=win, forfeit_loss=loss, pairing_bye=bye,
                       full_bye=win, half_bye=draw, zero_bye=loss)


def colour_of(text: str | None) -> Colour | None:
    return {"white": Colour.WHITE, "black": Colour.BLACK, None: None}[text]


def generator_config(run: Resolved, fixed: bool) -> GeneratorConfig:
    """The generator's configuration from a run's values (as the ``###`` line writes them,
    so that the line repeats the run)."""
    from .generator import GeneratorConfig

    v = run.values
    half, zero, full = v["half_bye_rate"], v["zero_bye_rate"], v["full_bye_rate"]
    byes = half + zero + full
    forfeits = v["forfeit_rate"]
    return GeneratorConfig(
        players=v["players"],
        rounds=v["rounds"],
        seed=run.seed,
        draw_rate=v["draw_rate"],
        forfeit_rate=forfeits,
        double_forfeit_share=v["double_forfeit_rate"] / forfeits if forfeits else 0.1,
        odd_result_rate=v["odd_result_rate"],
        bye_rate=byes,
        bye_kinds=(half / byes, (half + zero) / byes) if byes else (0.6, 0.9),
        withdrawal_rate=v["withdrawal_rate"],
        late_entry_rate=v["late_entry_rate"],
        rating_min=v["rating_min"],
        rating_max=v["rating_max"],
        rating_step=v["rating_step"] or None,
        rating_spread=float(v["rating_spread"] or 0),
        initial_colour=colour_of(v["initial_colour"]),
        forbidden_pairs=v["forbidden_pairs"],
        ratings=v["ratings"],
        results="elo" if fixed else "fide",
        baku=v["acceleration"] == "baku",
        points=point_system(v.get("points"), v.get("pab_points")),
    )


def system_of(args) -> System:
    """The system the command line names (``--dubov``, ``--dutch``, ``--burstein``)."""
    if getattr(args, "dutch", False):
        return System.DUTCH
    if getattr(args, "burstein", False):
        return System.BURSTEIN
    return System.DUBOV


def generated_text(args) -> tuple[str, int, bool]:
    """The generated tournament as TRF text (TRF-2026; ``args.trf16``: TRF-16), its seed,
    and whether the seed was drawn.  Raises ValueError or
    :class:`~pairing.engine.model.EngineError`."""
    from .generator import generate, generate_fast

    run = resolve(args)
    trf16 = getattr(args, "trf16", False)
    if trf16 and run.values["acceleration"] == "baku":
        raise ValueError("TRF-16 has no record for Baku acceleration's virtual points (250): "
                         "leave out --trf16 or give --acceleration none")
    if trf16 and run.rules is not None:
        raise ValueError("TRF-16 files leave out ### lines (some readers stop at them), and the Dubov rules of "
                         f"{run.rules} are declared by one: leave out --trf16, or write the file and pair it "
                         f"with --rules {run.rules}")
    config = generator_config(run, args.fixed)
    chosen = system_of(args)
    pairer = None
    if chosen is not System.DUBOV:
        from . import pair_round

        def pairer(snapshot):
            return pair_round(replace(snapshot, system=chosen))

    elif run.rules is not None:  # --rules 1997: every round by the Dubov rules of that year
        from . import pair_round

        rules = DubovRules(year=run.rules)

        def pairer(snapshot):
            return pair_round(replace(snapshot, dubov_rules=rules))

    system = chosen.value.capitalize()
    generated = (generate_fast(config, args.played) if args.fast
                 else generate(config, pairer=pairer, rounds_to_play=args.played))
    kind = "fast plausible history" if args.fast else f"every round paired by the {system} engine"
    if run.rules is not None and not args.fast:
        kind += f", rules of {run.rules}"
    t = from_generated(generated, name=f"Random {system} tournament, seed {run.seed} ({kind})")
    ranked = standings(t, t.rounds_played(), run.tiebreaks)
    coded = f"FIDE_{system.upper()}_BAKU" if config.baku else f"FIDE_{system.upper()}"
    t = replace(
        t,
        players=tuple(replace(p, points=ranked[p.id][0], rank=ranked[p.id][1]) for p in t.players),
        extra_lines=(f"### {run.command(args.fast, args.played, trf16)}",
                     *([DUBOV_RULES_LINE.format(year=run.rules)] if run.rules is not None else []),
                     TIEBREAK_TEXT_LINE.format(year=tiebreak_text(t)), f"062 {len(t.players)}",
                     f"072 {sum(1 for p in t.players if p.rating)}", f"092 Individual: Swiss system (FIDE {system})",
                     f"192 {coded}", f"202 {run.tiebreaks}", f"212 PTS, {run.tiebreaks}", *t.extra_lines),
    )
    text = dump_trf(t)
    if trf16:  # the seed stays in the name (012); some TRF-16 readers stop at a ### line
        text = as_trf16(text)
    return text, run.seed, run.drawn_seed
