"""The engine stands alone: it imports nothing from Django (architecture boundary)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A fresh interpreter in which any attempt to import Django fails, then every engine
# module is imported and one round is paired through the command line's code path.
PROBE = """
import importlib, pkgutil, sys

class NoDjango:
    def find_spec(self, name, path=None, target=None):
        if name == "django" or name.startswith("django."):
            raise ImportError("the engine imported " + name)
        return None

sys.meta_path.insert(0, NoDjango())
import pairing.engine as engine
for info in pkgutil.iter_modules(engine.__path__):
    importlib.import_module("pairing.engine." + info.name)
assert not [m for m in sys.modules if m == "django" or m.startswith("django.")]
print("ok")
"""


def test_the_engine_imports_nothing_from_django():
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
