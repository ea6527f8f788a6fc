"""TRF import of damaged files: whatever the damage, the import either succeeds or is
refused with messages, and a refusal writes nothing.  Never a server error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing.models import AuditEntry, Bye, ForbiddenPair, Player, Round, Tournament
from pairing.services import interchange
from pairing.warning_levels import NeedsConfirmation

# A tournament our engine paired: 10 players, 3 of 5 rounds, forfeits, requested byes,
# a PAB, forbidden pairs and an absence for round 4 (made with
# python -m pairing.engine --dubov -g --players 10 --rounds 5 --played 3 --seed 4
#   --forfeit-rate 0.1 --bye-rate 0.1 --forbidden-pairs 2).
GOOD = (Path(__file__).parent / "data" / "generated-10-players.trf").read_text()
LINES = GOOD.splitlines()
# '²', '٣' (Arabic-Indic three) and '３' (fullwidth three) pass str.isdigit() but not int()
# or not as the digit they look like (audit finding 3)
NOISE = "0123456789 +-=WDLUFHZwb.\t²٣３"


@st.composite
def damaged(draw) -> str:
    lines = list(LINES)
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["char", "char", "char", "drop", "repeat", "cut", "number"]))
        line = lines[i]
        if action == "number":  # a header value: rounds, a point value, a player id
            numbers = list(re.finditer(r"\d+(\.\d+)?", line))
            if numbers:
                m = draw(st.sampled_from(numbers))
                value = draw(st.sampled_from(["0", "0.5", "1", "2", "3", "0.25", "150", "1000", "²", "1٣", "３"]))
                lines[i] = line[: m.start()] + value + line[m.end():]
            continue
        if action == "char" and line:
            j = draw(st.integers(0, len(line) - 1))
            lines[i] = line[:j] + draw(st.sampled_from(NOISE)) + line[j + 1:]
        elif action == "drop" and len(lines) > 1:
            del lines[i]
        elif action == "repeat":
            lines.insert(i, line)
        elif action == "cut":
            lines[i] = line[: draw(st.integers(0, len(line)))]
    return "\n".join(lines) + "\n"


def test_the_undamaged_file_imports(chief):
    t = Tournament.objects.create(slug="fuzz-good", name="Fuzz", owner=chief)
    assert interchange.import_trf(t, GOOD, chief) == 10
    assert t.rounds_published() == 3 and t.forbiddenpair_set.count() == 2


@pytest.mark.django_db
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=damaged())
def test_a_damaged_file_is_imported_or_refused_and_a_refusal_writes_nothing(chief, text):
    try:
        with transaction.atomic():  # each example rolls back what it wrote
            _import_or_refuse(chief, text)
            raise _Undo
    except _Undo:
        pass


class _Undo(Exception):
    pass


def _import_or_refuse(chief, text: str) -> None:
    t = Tournament.objects.create(slug="fuzz", name="Fuzz", rounds=5, owner=chief)
    try:
        try:
            count = interchange.import_trf(t, text, chief)
        except NeedsConfirmation as question:
            # adjustments to confirm first (VCL4THP Q48-50, Q54-55, Q166): asked before anything is written
            assert question.warnings and all(question.warnings)
            for model in (Player, Round, Bye, ForbiddenPair, AuditEntry):
                assert not model.objects.filter(tournament=t).exists(), model.__name__
            count = interchange.import_trf(t, text, chief, confirmations=1)
    except interchange.ImportRefused as exc:
        assert exc.problems and all(message for _, _, message in exc.problems)
        for model in (Player, Round, Bye, ForbiddenPair, AuditEntry):
            assert not model.objects.filter(tournament=t).exists(), model.__name__
        t.refresh_from_db()
        assert t.rounds == 5
    else:
        assert count == t.player_set.count() > 0
