#!/usr/bin/env bash
# CI: the free checker as its own program (issue 35).  Builds its wheel and single-file
# program (make checker), installs the wheel with pip in a clean virtual environment without
# Django (and checks that Django cannot be imported there), and runs scripts/checker_smoke.py
# with each: generate, check, pair, and the exit codes the README documents (0, 1, 2, 3, 4),
# for the Dubov, Dutch and Burstein systems.  The single-file program runs on the system's
# plain python3 with no site-packages at all (-I -S).  Nothing is downloaded.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

PYTHON=${PYTHON:-python3.11}
make checker PYTHON="$PYTHON"
wheel=$(ls dist/fide_pairings-*-py3-none-any.whl)
pyz=$(ls dist/fide-pairings-*.pyz)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$PYTHON" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --no-index --disable-pip-version-check "$wheel"
if "$work/venv/bin/python" -c "import django" 2>/dev/null; then
    echo "the checker's virtual environment can import Django: it is not clean" >&2
    exit 1
fi
echo "the checker's virtual environment: $("$work/venv/bin/python" -m pip list --disable-pip-version-check 2>/dev/null | tail -n +3 | awk '{print $1}' | tr '\n' ' ')(no Django)"

# run from a folder outside the repository, so that nothing of it is importable
cd "$work"
"$PYTHON" "$OLDPWD/scripts/checker_smoke.py" -- "$work/venv/bin/fide-pairings"
plain=/usr/bin/python3   # Debian's own Python, as an arbiter's machine has one
[ -x "$plain" ] || plain=$(command -v python3)
echo "the single-file program on $plain ($("$plain" --version)), no site-packages"
if "$plain" -I -S -c "import django" 2>/dev/null; then
    echo "python3 -I -S can import Django: it is not a plain Python" >&2
    exit 1
fi
"$PYTHON" "$OLDPWD/scripts/checker_smoke.py" -- "$plain" -I -S "$OLDPWD/$pyz"
echo "the free checker's stage passed in $(( $(date +%s) - started )) s"
