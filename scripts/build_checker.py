"""Build the free checker as a program of its own: its wheel and its single-file program.

    python3 scripts/build_checker.py [--out dist]        (make checker)

Writes ``dist/fide_pairings-<version>-py3-none-any.whl`` and ``dist/fide-pairings-<version>.pyz``
(pairing/distribution.py says what goes in) and prints their sizes and the build time.  The
standard library only: no virtual environment, no build backend, no network.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pairing import distribution  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "dist"), help="output folder (default: dist/)")
    args = ap.parse_args()
    start = time.perf_counter()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    sha = distribution.commit()
    for built in (distribution.build_wheel(sha), distribution.build_zipapp(sha)):
        path = out / built.name
        path.write_bytes(built.data)
        if path.suffix == ".pyz":
            os.chmod(path, 0o755)
        print(f"{path} {len(built.data):,} bytes")
    print(f"built from commit {sha or '(unknown)'} in {time.perf_counter() - start:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
