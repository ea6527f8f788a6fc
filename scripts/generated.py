"""Our generator, called in-process by the comparison scripts (not part of the app)."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pairing.engine.__main__ import main as engine_main  # noqa: E402


def generate(path: Path, options: list[str], system: str = "dubov") -> None:
    """Write a generated tournament to ``path`` (``options``: the engine's ``-g`` flags;
    ``system``: the system that pairs every round, ``dubov``, ``dutch`` or ``burstein``);
    the seed the generator prints on standard error is not shown."""
    args = [f"--{system}", "-g", *options, "-o", str(path)]
    with open(os.devnull, "w") as quiet, contextlib.redirect_stderr(quiet):
        code = engine_main(args)
    if code:
        raise RuntimeError(f"generator failed: {args}")
