"""docs/fide-checklist.md says what its rows say (issue 35): its summary is counted from
the rows by scripts/checklist_totals.py, and every test a row cites exists."""

from __future__ import annotations

from scripts.checklist_totals import CHECKLIST, block_in, missing_tests, rows, summary, totals


def test_issue35_the_checklists_summary_is_what_its_rows_give():
    text = CHECKLIST.read_text(encoding="utf-8")
    assert block_in(text) == totals(text), "run scripts/checklist_totals.py and paste its output into the block"


def test_issue35_every_test_the_checklist_cites_exists():
    assert missing_tests(CHECKLIST.read_text(encoding="utf-8")) == []


def _table(outcomes: dict[int, str]) -> str:
    lines = ["## Some section", "", "| Q | Asks | Desirable | Ours | Outcome | Evidence |", "|---|---|---|---|---|---|"]
    lines += [f"| {q} | ? | Y | Y | {outcomes.get(q, 'ok')} | - |" for q in range(1, 226)]
    return "\n".join(lines)


def test_issue35_the_count_follows_the_checklists_rules():
    """Off the path costs nothing; the path goes on past a FAIL, so both FAILs count;
    penalties add up; an unknown counts at its better reading (Y: 5% here) and names its
    worse one."""
    main, _ = rows(_table({
        3: "**FAIL**", 4: "gap, off path (if reached, N: FAIL)", 5: "penalty 30%", 6: "penalty 7% until sent",
        7: "FAIL", 8: "unknown (Y: penalty 5%; N: FAIL)", 9: "gap: no cost here, routes to Q10",
        10: "ok (off path)",
    }))
    assert summary("S", main) == [
        "S",
        "  All 225 questions:     218 met, 6 gaps, 1 unknown",
        "  On the path:           223 questions: 217 met, 5 gaps, 1 unknown",
        "  FAILs on the path:     2 (Q3, Q7)",
        "  Penalties on the path: 42% over 3 answers (Q5 30%, Q6 7%, Q8 5% (unknown, its better reading)); over 100% fails",
        "  Unknowns on the path:  Q8 (5% at the better reading, FAIL at the worse)",
    ]


def test_issue35_a_second_systems_rows_take_the_place_of_the_same_questions():
    text = _table({33: "ok"}) + "\n\n## The Dutch system\n\n| Q | Asks | D | O | Outcome | Evidence |\n" \
        "|---|---|---|---|---|---|\n| 33 | ? | Y | N | **FAIL** until 50,000 | - |\n" \
        "| 106, 109–111 | ? | Y | Y | penalty 3% | - |\n"
    main, dutch = rows(text)
    assert sorted(dutch) == [33, 106, 109, 110, 111]
    assert summary("Dubov", main)[3] == "  FAILs on the path:     0"
    lines = summary("Dutch", {**main, **dutch})
    assert lines[3] == "  FAILs on the path:     1 (Q33)"
    assert lines[4].startswith("  Penalties on the path: 12% over 4 answers")
