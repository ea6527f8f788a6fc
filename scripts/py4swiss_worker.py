"""A long-lived py4swiss process for scripts/compare_pairings_py4swiss.py.

Run with py4swiss's own Python (its virtual environment), never the app's::

    /tmp/p4venv/bin/python scripts/py4swiss_worker.py

Starting Python and importing py4swiss costs about 0.2 s, most of one ``py4swiss`` run;
at 50,000 tournaments of about eight rounds that is a day.  This worker imports it once
and runs its own command-line entry point in-process, one request per line of standard
input (JSON), one answer per line of standard output::

    {"argv": ["py4swiss", "-t", FILE, "-e", "dubov", "-p", OUT]}  -> {"ok": true}

The argv is what the command line would get, so the pairing file written is the one the
command writes (the harness checks this on a sample: ``--check-worker``).  Nothing of
py4swiss is copied here.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import traceback


def main() -> int:
    from py4swiss.main import main as py4swiss_main  # noqa: PLC0415 - importable only in its venv

    answer = sys.stdout
    for line in sys.stdin:
        argv = json.loads(line)["argv"]
        noise = io.StringIO()
        try:
            sys.argv = list(argv)
            with contextlib.redirect_stdout(noise), contextlib.redirect_stderr(noise):
                py4swiss_main()
            reply = {"ok": True}
        except BaseException:  # noqa: BLE001 - its errors and SystemExit alike go back to the harness
            reply = {"ok": False, "err": traceback.format_exc(limit=2).strip().splitlines()[-1]}
        answer.write(json.dumps(reply) + "\n")
        answer.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
