"""Peak memory of reading rating-list files at and past the caps (issue 33, finding 4:
a 1.17 MB zip holding one 1.2 GB line took a worker to 2.6 GB).

    .venv/bin/python benchmarks/bench_rating_file_memory.py [--only NAME ...] [--load]

Each case is a file written to a temporary folder (zips are written in a stream, so no
case is ever held whole in memory here), then read in a fresh subprocess by
:func:`pairing.rating_files.read_any` with the upload page's caps; the subprocess reports
its peak RSS (``ru_maxrss``), the rows read or the refusal, and the seconds taken.  With
``--load`` the cases under the caps are also loaded into a throw-away SQLite database by
``load_list`` (batches of 50,000 rows).  The target: under 300 MB for any file under the
caps.  Not part of the test run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MB = 1024 * 1024


def _zip(path: Path, inner: str, chunks) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z, \
            z.open(inner, "w", force_zip64=True) as f:
        for chunk in chunks:
            f.write(chunk)


def _plain(path: Path, chunks) -> None:
    with path.open("wb") as f:
        for chunk in chunks:
            f.write(chunk)


def _txt_rows(total: int):
    from tests.web.rating_fuzz import TXT_HEADER, fide_txt

    line = fide_txt().split(b"\n")[1] + b"\n"
    yield TXT_HEADER.encode() + b"\n"
    n = 0
    block = []
    while n < total:
        fid = str(1_000_000 + n).encode()
        block.append(fid + line[len(fid):])
        n += len(line)
        if len(block) == 10_000:
            yield b"".join(block)
            block = []
    yield b"".join(block)


def _xml_players(total: int, name_len: int = 15):
    yield b'<?xml version="1.0" encoding="utf-8"?>\n<playerslist>\n'
    n, i = 0, 0
    block = []
    while n < total:
        row = (f"<player><fideid>{1_000_000 + i}</fideid><name>{'N' * name_len}, A</name><country>SLO</country>"
               f"<sex>M</sex><title></title><rating>2000</rating><k>20</k><rapid_rating>1900</rapid_rating>"
               f"<birthday>1990</birthday><flag></flag></player>\n").encode()
        block.append(row)
        n += len(row)
        i += 1
        if len(block) == 10_000:
            yield b"".join(block)
            block = []
    yield b"".join(block)
    yield b"</playerslist>\n"


def _csv_rows(total: int):
    yield b"id,name,rating,federation,birth year\n"
    n, i, block = 0, 0, []
    while n < total:
        row = f"N-{i},\"Novak, Ana {i}\",{1000 + i % 2000},SLO,1990\n".encode()
        block.append(row)
        n += len(row)
        i += 1
        if len(block) == 10_000:
            yield b"".join(block)
            block = []
    yield b"".join(block)


def cases(cap: int, line_cap: int, field_cap: int, fields_cap: int, csv_cap: int):
    """(name, file name, kind, writer, under the caps?)"""
    from tests.web.rating_fuzz import TXT_HEADER

    head = TXT_HEADER.encode() + b"\n"
    return [
        ("txt: rows to just under the unzipped cap", "list.zip", "fide",
         lambda p: _zip(p, "list.txt", _txt_rows(cap - 4096)), True),
        ("txt: lines of the longest length, blank", "list.zip", "fide",
         lambda p: _zip(p, "list.txt", [head, *([(b" " * (line_cap - 1) + b"\n") * 1000] * (cap // (line_cap * 1000) - 1))]),
         True),
        ("xml: players to just under the unzipped cap", "list.zip", "fide",
         lambda p: _zip(p, "list.xml", _xml_players(cap - 4096)), True),
        ("xml: names of 80 characters", "list.zip", "fide",
         lambda p: _zip(p, "list.xml", _xml_players(64 * MB, name_len=77)), True),
        ("xml: players of the most elements, each of the longest text", "list.zip", "fide",
         lambda p: _zip(p, "list.xml", [b"<playerslist>", *([b"<player><fideid>1</fideid><name>N, A</name>"
                                        + (b"<x>" + b"a" * field_cap + b"</x>") * (fields_cap - 2)
                                        + b"</player>"] * 20_000), b"</playerslist>"]), True),
        ("csv: rows to just under its cap", "list.csv", "national",
         lambda p: _plain(p, _csv_rows(csv_cap - 200)), True),
        ("bomb: one 1.2 GB line (the audit's file)", "list.zip", "fide",
         lambda p: _zip(p, "list.txt", [head, *([b"1" * MB] * 1200)]), False),
        ("bomb: one 200 MB line (under the unzipped cap)", "list.zip", "fide",
         lambda p: _zip(p, "list.txt", [head, *([b"1" * MB] * 200)]), False),
        ("bomb: one XML field of 9 MB", "list.zip", "fide",
         lambda p: _zip(p, "list.xml", [b"<playerslist><player><name>", b"A" * (9 * MB), b"</name></player></playerslist>"]),
         False),
        ("bomb: one player of 40 million elements", "list.zip", "fide",
         lambda p: _zip(p, "list.xml", [b"<playerslist><player>", *([b"<x/>" * (MB // 4)] * 160), b"</player></playerslist>"]),
         False),
        ("bomb: 8 GB unzipped", "list.zip", "fide",
         lambda p: _zip(p, "list.txt", [head, *([(b" " * 150 + b"\n") * 7000] * 8000)]), False),
    ]


def child(path: str, kind: str, load: bool) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "arbiter_site.settings"
    os.environ["DJANGO_DEBUG"] = "true"
    from pairing.rating_files import RatingFileError, read_any

    started = time.perf_counter()
    rows, refused = 0, ""
    try:
        if load:
            import django

            django.setup()
            from django.core.management import call_command

            call_command("migrate", verbosity=0)
            from pairing.services.rating_lists import load_list

            with open(path, "rb") as f:
                rows = load_list(f, Path(path).name, kind=kind, name="Bench").players
        else:
            with open(path, "rb") as f:
                for _row in read_any(f, Path(path).name, kind):
                    rows += 1
    except RatingFileError as exc:
        refused = str(exc)[:160]
    print(json.dumps({"rows": rows, "refused": refused, "seconds": time.perf_counter() - started,
                      "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="run the cases whose name contains one of these")
    parser.add_argument("--load", action="store_true", help="also load the cases under the caps into SQLite")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], args.child[2] == "load")
        return 0
    from pairing import rating_files as rf

    print(f"caps: unzipped {rf.MAX_UNZIPPED_BYTES:,} B, TXT line {rf.MAX_LINE_CHARS:,} chars, XML field "
          f"{rf.MAX_FIELD_CHARS} chars, {rf.MAX_PLAYER_FIELDS} elements a player, CSV {rf.MAX_CSV_BYTES:,} B\n")
    print("| case | file MB | unzipped MB | how | rows | refused | s | peak RSS MB |")
    print("|---|---:|---:|---|---:|---|---:|---:|")
    worst = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for name, filename, kind, write, under in cases(rf.MAX_UNZIPPED_BYTES, rf.MAX_LINE_CHARS, rf.MAX_FIELD_CHARS,
                                                        rf.MAX_PLAYER_FIELDS, rf.MAX_CSV_BYTES):
            if args.only and not any(o in name for o in args.only):
                continue
            path = Path(folder) / filename
            write(path)
            size = path.stat().st_size
            unzipped = sum(i.file_size for i in zipfile.ZipFile(path).infolist()) if filename.endswith(".zip") else size
            for how in ["read"] + (["load"] if args.load and under else []):
                env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3"}
                out = subprocess.run([sys.executable, __file__, "--child", str(path), kind, how], capture_output=True,
                                     text=True, env=env, check=False)
                if out.returncode:
                    print(f"| {name} | {size / MB:.1f} | {unzipped / MB:,.0f} | {how} | crashed: {out.stderr[-300:]!r} |")
                    worst = float("inf")
                    continue
                r = json.loads(out.stdout.strip().splitlines()[-1])
                worst = max(worst, r["peak_mb"]) if under else worst
                print(f"| {name} | {size / MB:.1f} | {unzipped / MB:,.0f} | {how} | {r['rows']:,} | {r['refused'] or '—'} "
                      f"| {r['seconds']:.1f} | {r['peak_mb']:.0f} |")
            path.unlink()
    print(f"\nworst peak under the caps: {worst:.0f} MB")
    return 0 if worst < 300 else 1


if __name__ == "__main__":
    sys.exit(main())
