"""Load a FIDE-sized rating list and time the player look-up (issue 18).

    .venv/bin/python benchmarks/bench_rating_list.py [--db sqlite|postgres] [--players 1200000] [--queries 400]

Writes a ``players_list_xml.zip`` of ``--players`` random players in FIDE's XML format
(names from syllables, a few with accents; standard, rapid and blitz ratings, K, birth
year, flags), loads it through ``manage.py import_rating_list`` in a throw-away database
(as bench_import.py) and reports the load time and the process's peak memory; then runs
``--queries`` look-ups as an arbiter types them (2-4 letters of the surname, of the given
name, both in either order, a FIDE id) through the search service and reports the 50th,
95th and 99th percentile.  A second load of the same month times the atomic replacement.
No timing is asserted (benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import io
import random
import resource
import statistics
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_import import configure  # noqa: E402 - after the path is set

SYLLABLES = ["ka", "ro", "mi", "sen", "lo", "va", "tur", "ni", "ber", "gi", "an", "dre", "po", "lev", "shi", "mar",
             "to", "el", "ko", "ran", "vic", "de", "su", "ha", "jo", "ne", "ul", "ric", "sa", "tem"]
ACCENTED = ["Ćirić", "Müller", "Šarić", "Gómez", "Øvrebø", "Łukasz", "Dvořák", "Nuñez"]
FEDS = ["SLO", "GER", "FRA", "IND", "USA", "RUS", "ESP", "NOR", "CRO", "POL", "CZE", "ITA"]


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))).capitalize()


def write_list(path: Path, players: int, seed: int = 1) -> list[tuple[str, str]]:
    """The zip; returns (fide id, name) of a sample of players to search for."""
    rng = random.Random(seed)
    sample: list[tuple[str, str]] = []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z, z.open("players_list_xml_foa.xml", "w") as raw:
        out = io.TextIOWrapper(raw, encoding="utf-8")
        out.write('<?xml version="1.0" encoding="utf-8"?>\n<playerslist>\n')
        for i in range(players):
            fide_id = str(100000 + i * 7)
            surname = rng.choice(ACCENTED) if rng.random() < 0.03 else _word(rng)
            name = f"{surname}, {_word(rng)}"
            std = rng.randint(1400, 2800) if rng.random() < 0.6 else 0
            rapid = rng.randint(1400, 2800) if rng.random() < 0.4 else 0
            blitz = rng.randint(1400, 2800) if rng.random() < 0.4 else 0
            out.write(
                f"<player><fideid>{fide_id}</fideid><name>{name}</name><country>{rng.choice(FEDS)}</country>"
                f"<sex>{rng.choice('MF')}</sex><title>{rng.choice(['', '', '', 'FM', 'IM', 'GM'])}</title>"
                f"<w_title></w_title><o_title></o_title><foa_title></foa_title>"
                f"<rating>{std or ''}</rating><games>0</games><k>{20 if std else ''}</k>"
                f"<rapid_rating>{rapid or ''}</rapid_rating><rapid_games>0</rapid_games><rapid_k>{20 if rapid else ''}</rapid_k>"
                f"<blitz_rating>{blitz or ''}</blitz_rating><blitz_games>0</blitz_games><blitz_k>{20 if blitz else ''}</blitz_k>"
                f"<birthday>{rng.randint(1930, 2018)}</birthday><flag>{rng.choice(['', '', 'i', 'w', 'wi'])}</flag>"
                "</player>\n"
            )
            if rng.random() < 0.001:
                sample.append((fide_id, name))
        out.write("</playerslist>\n")
        out.flush()
    return sample


def queries(sample: list[tuple[str, str]], count: int, seed: int = 2) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        fide_id, name = rng.choice(sample)
        surname, given = (x.strip() for x in name.split(","))
        kind = rng.randrange(5)
        if kind == 0:
            out.append(fide_id)
        elif kind == 1:
            out.append(surname[: rng.randint(2, 4)])
        elif kind == 2:
            out.append(f"{surname[: rng.randint(2, 5)]} {given[:2]}")
        elif kind == 3:
            out.append(f"{given[: rng.randint(3, 5)]} {surname[:3]}")
        else:
            out.append(surname)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--players", type=int, default=1_200_000)
    parser.add_argument("--queries", type=int, default=400)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "players_list_xml.zip"
        t0 = time.perf_counter()
        sample = write_list(path, args.players)
        print(f"wrote {args.players:,} players ({path.stat().st_size / 1e6:.1f} MB zipped) "
              f"in {time.perf_counter() - t0:.1f} s")
        configure(args.db, folder)
        from django.core.management import call_command

        from pairing.models import RatingList
        from pairing.services.rating_lists import search

        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        t0 = time.perf_counter()
        call_command("import_rating_list", str(path), "--month", "2026-11", stdout=io.StringIO())
        load = time.perf_counter() - t0
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(f"{args.db}: load {load:.1f} s; peak memory {peak / 1024:.0f} MB (before the load {before / 1024:.0f} MB)")
        lists = list(RatingList.objects.active())
        times = []
        hits = 0
        for q in queries(sample, args.queries):
            t0 = time.perf_counter()
            found = search(q, lists)
            times.append((time.perf_counter() - t0) * 1000)
            hits += bool(found)
        times.sort()
        pct = statistics.quantiles(times, n=100)
        print(f"{args.db}: {len(times)} look-ups, {hits} with results; p50 {pct[49]:.1f} ms, p95 {pct[94]:.1f} ms, "
              f"p99 {pct[98]:.1f} ms, max {times[-1]:.1f} ms")
        t0 = time.perf_counter()
        call_command("import_rating_list", str(path), "--month", "2026-11", stdout=io.StringIO())
        print(f"{args.db}: replacing the list of the same month {time.perf_counter() - t0:.1f} s; "
              f"active lists {RatingList.objects.active().count()}, all lists {RatingList.objects.count()}")


if __name__ == "__main__":
    main()
