"""A long-lived Gacrux (TieBreakServer) process for scripts/compare_tiebreaks_gacrux.py.

Run with Gacrux's own Python (it needs ``networkx``), never the app's::

    /tmp/gvenv/bin/python scripts/gacrux_worker.py /tmp/gacrux

Starting Python and importing Gacrux costs about 0.1 s, nearly all of one
``tiebreakchecker.py`` run; at 50,000 tournaments, two texts each, that is hours.  This
worker imports Gacrux once and then runs its own command-line entry points in-process,
one request per line of standard input (JSON), one answer per line of standard output:

    {"argv": ["tiebreakchecker.py", "-i", FILE, ...]}          -> {"ok": true, "out": TEXT}
    {"argv": ["tournamentgenerator.py", "-g", N, "1", ...]}    -> {"ok": true, "out": ""}
    {"argv": ["pairingchecker.py", "-p", "-m", "dutch", "-i", FILE]} -> {"ok": true, "out": JSON}

(the last for scripts/compare_pairings_bbp.py: Gacrux's Dutch pairing of the next round)

The argv is exactly what the command line would get, so an answer is what the program
prints when run from a shell (the harness checks this on a sample: ``--check-worker``).
Nothing of Gacrux is copied here: the worker imports its modules from the given folder.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import traceback


def main() -> int:
    gdir = os.path.abspath(sys.argv[1])
    sys.path.insert(0, gdir)
    os.chdir(gdir)
    sys.set_int_max_str_digits(15000)  # as tournamentgenerator.py's own __main__
    import pairingchecker  # noqa: PLC0415 - Gacrux's modules, importable only here
    import tiebreakchecker  # noqa: PLC0415
    import tournamentgenerator  # noqa: PLC0415

    answer = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        argv = request["argv"]
        out = io.StringIO()
        try:
            sys.argv = list(argv)
            with contextlib.redirect_stdout(out):
                if argv[0] == "tiebreakchecker.py":
                    code = tiebreakchecker.tiebreakchecker().common_main()
                elif argv[0] == "tournamentgenerator.py":
                    tge = tournamentgenerator.tournamentgenerator()
                    code = tge.read_command_line()
                    tge.process_tournaments()
                elif argv[0] == "pairingchecker.py":
                    code = pairingchecker.pairingchecker().common_main()
                else:
                    raise ValueError(f"unknown program {argv[0]!r}")
            reply = {"ok": not code, "out": out.getvalue(), "code": code}
        except BaseException:  # noqa: BLE001 - SystemExit and KeyError alike go back to the harness
            reply = {"ok": False, "out": out.getvalue(), "err": traceback.format_exc(limit=3)}
        answer.write(json.dumps(reply) + "\n")
        answer.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
