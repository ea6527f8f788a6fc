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

import random
import secrets
import shlex
from dataclasses import dataclass, replace

from .generator import GeneratorConfig, generate, generate_fast
from .model import Colour, Result, RoundEntry
from .trf import dump_trf, from_generated

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
TIEBREAK_LISTS = ("BH/C1, BH, SB", "BH/C1, BH/M1, SB, DE", "ARO/C1, BH/C1, SB", "DE, WIN, BH/C1, SB", "SB, BH, PS")
FIXED_TIEBREAKS = "BH/C1, BH, SB"


@dataclass(frozen=True)
class Resolved:
    """Every generator value of a run, given or drawn."""

    seed: int
    values: dict
    tiebreaks: str
    drawn_seed: bool

    def command(self, fast: bool, played: int | None) -> str:
        """The command line that repeats this run."""
        parts = ["python -m pairing.engine --dubov -g", f"--seed {self.seed}"]
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
        return " ".join(parts)


def resolve(args) -> Resolved:
    """The run's values: those given, else fixed defaults (``--fixed``), else drawn from
    the seed within :data:`RANDOM_RANGES`."""
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
    return Resolved(seed, values, tiebreaks, drawn_seed)


def standings(t, played: int, order_text: str | None):
    """``{id: (points, rank)}`` of a :class:`~pairing.engine.trf.TrfTournament` after
    ``played`` rounds, ranked by the tie-break list ``order_text`` (202 spelling; None:
    points only).  Raises ValueError for a list that cannot be read.  The C.07 text
    follows the file's start date (042; the 2026 text from 1 March 2026 or without a
    date); with unrated players (no rating) present the rating-based tie-breaks are
    dropped, as C.07 10 says when no other rule is published.  The rank is the first
    place of the player's tie group and the number of players sharing it:
    ``{id: (points, rank, shared)}``."""
    from pairing import tiebreaks as tb

    order = tb.parse_order(order_text) if order_text else ()
    start = (t.start_date or "").strip().replace("-", "/").replace(".", "/")
    rules = tb.RULES_2023 if start[:10] and start[:10] < "2026/03/01" else tb.RULES_2026
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


def colour_of(text: str | None) -> Colour | None:
    return {"white": Colour.WHITE, "black": Colour.BLACK, None: None}[text]


def generated_text(args) -> tuple[str, int, bool]:
    """The generated tournament as TRF text, its seed, and whether the seed was drawn.
    Raises ValueError or :class:`~pairing.engine.model.EngineError`."""
    run = resolve(args)
    v = run.values
    config = GeneratorConfig(
        players=v["players"],
        rounds=v["rounds"],
        seed=run.seed,
        draw_rate=v["draw_rate"],
        forfeit_rate=v["forfeit_rate"],
        bye_rate=v["bye_rate"],
        withdrawal_rate=v["withdrawal_rate"],
        late_entry_rate=v["late_entry_rate"],
        rating_min=v["rating_min"],
        rating_max=v["rating_max"],
        initial_colour=colour_of(v["initial_colour"]),
        forbidden_pairs=v["forbidden_pairs"],
        ratings=v["ratings"],
        results="elo" if args.fixed else "fide",
        baku=v["acceleration"] == "baku",
    )
    generated = generate_fast(config, args.played) if args.fast else generate(config, rounds_to_play=args.played)
    kind = "fast plausible history" if args.fast else "every round paired by the Dubov engine"
    t = from_generated(generated, name=f"Random Dubov tournament, seed {run.seed} ({kind})")
    ranked = standings(t, t.rounds_played(), run.tiebreaks)
    t = replace(
        t,
        players=tuple(replace(p, points=ranked[p.id][0], rank=ranked[p.id][1]) for p in t.players),
        extra_lines=(f"### {run.command(args.fast, args.played)}", f"202 {run.tiebreaks}", *t.extra_lines),
    )
    return dump_trf(t), run.seed, run.drawn_seed
