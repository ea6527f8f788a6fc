"""What the public pages show once a round is complete, computed ahead of the first
visitor: the standings after it (and with them the crosstable, the player cards and the
CSV), the points before the next round and, for a Dubov tournament, the chart of the AROs
per scoregroup (its own page) and, with a round still to come, the ARO list before it.

The result that completes a round moves every one of them; at 10,000 players the
standings take a second or two to compute and a Dubov ARO list several
(docs/scaling.md).  The worker computes them as soon as the round is complete, or a
player's details (his rating), a withdrawal, byes or the settings are saved (:func:`pairing.tasks.compute_ahead`, queued by
the view that saved the change: :func:`pairing.tasks.figures_moved`); a visitor who asks
meanwhile waits for that computation instead of starting another
(:func:`pairing.computed.once`), and a value already there is only read.  Reads only: the
values go into the shared cache that every page reads from."""

from __future__ import annotations

from ..models import Tournament
from .aro import aro_lines, aro_spread
from .standings import complete_rounds, points_before, ranked


def after_a_round(t: Tournament) -> list[str]:
    """Compute (or find) what the pages show after the last complete round; the names of
    what was asked for, for the log and the tests."""
    done = complete_rounds(t)
    if done == 0:
        return []
    ranked(t)
    asked = ["standings"]
    if done < t.rounds:
        points_before(t, done + 1)
        asked.append("points before the next round")
        if t.publishes_aro_list:
            aro_lines(t, done + 1)
            asked.append("ARO list")
    if t.publishes_aro_list:
        # its own page, also after the last round; it reads the rounds as columns, not
        # the list's snapshot
        aro_spread(t)
        asked.append("ARO chart")
    return asked
