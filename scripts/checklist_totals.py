"""The totals of docs/fide-checklist.md, counted from its rows, so that its summary cannot
drift from them (issue 35: "the summary counts what the rows say").

The rules are the checklist's own (../shared/reference/vcl4thp-13.md): a row's Outcome is
met ("ok ..."), unknown ("unknown ...") or a gap (a FAIL, a penalty, or "gap ...");
a row is on the path unless its Outcome says "off path"; the path is followed past a
FAIL as if it were fixed, so every FAIL on it is counted; the penalties on the path add up
(over 100 % fails); an unknown on the path counts at its better reading (and its worse
reading is named).

Each pairing system is verified on its own: the Dubov system by the rows of every section
but "The Dutch system"; the Dutch system by those rows with the Dutch section's rows in
their place (a row "26–29" or "106, 109–111" stands for each question it names)::

    python scripts/checklist_totals.py            # print the summary block
    python scripts/checklist_totals.py --check    # exit 1 when the document's block differs
                                                   # from the rows, or a row cites a test that
                                                   # does not exist

tests/test_checklist_totals.py holds the document to both.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

CHECKLIST = Path(__file__).resolve().parent.parent / "docs" / "fide-checklist.md"
QUESTIONS = 225
DUTCH_SECTION = "## The Dutch system"
BEGIN = "<!-- totals: scripts/checklist_totals.py -->"
END = "<!-- end of totals -->"
FAIL = 10**6  # a hard failure, dearer than any penalty


@dataclass(frozen=True)
class Row:
    q: int
    outcome: str

    @property
    def kind(self) -> str:
        if self.outcome.startswith("ok"):
            return "met"
        if self.outcome.startswith("unknown"):
            return "unknown"
        return "gap"

    @property
    def on_path(self) -> bool:
        return "off path" not in self.outcome

    @property
    def fails(self) -> bool:
        return self.kind == "gap" and "FAIL" in self.outcome

    @property
    def penalty(self) -> int:
        found = re.match(r"(?:\*\*)?penalty (\d+)\s*%", self.outcome) if self.kind == "gap" else None
        return int(found.group(1)) if found else 0

    def readings(self) -> tuple[int, int | None]:
        """An unknown's cost at its better and its worse reading (None: no cost recorded).
        Each reading is written "Y: ok", "N: penalty 7%", "N: FAIL"; a reading not
        written is free."""
        costs = []
        for answer in ("Y", "N"):
            found = re.search(rf"\b{answer}: ([^;)]*)", self.outcome)
            if not found:
                costs.append(0)
                continue
            text = found.group(1)
            percent = re.search(r"(\d+)\s*%", text)
            costs.append(FAIL if "FAIL" in text else int(percent.group(1)) if percent else 0)
        worse: int | None = max(costs)
        if any(text in self.outcome for text in ("no cost recorded", "cost unknown", "unknown cost")):
            worse = None
        return min(costs), worse


def _questions(cell: str) -> list[int]:
    """The questions a row's first cell names: "33", "26–29", "106, 109–111"."""
    questions = []
    for part in cell.split(","):
        found = re.fullmatch(r"(\d+)(?:\s*[–-]\s*(\d+))?", part.strip())
        if not found:
            return []
        first = int(found.group(1))
        questions += range(first, int(found.group(2) or first) + 1)
    return questions


def rows(text: str) -> tuple[dict[int, Row], dict[int, Row]]:
    """The rows of the document: (every section but the Dutch one, the Dutch section)."""
    main: dict[int, Row] = {}
    dutch: dict[int, Row] = {}
    section = ""
    for line in text.splitlines():
        if line.startswith("## "):
            section = line
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 6:
            continue
        into = dutch if section.startswith(DUTCH_SECTION) else main
        for q in _questions(cells[0]):
            if q in into:
                raise ValueError(f"question {q} has two rows in one system's sections")
            into[q] = Row(q, cells[4])
    return main, dutch


def _percent(value: int) -> str:
    return "FAIL" if value >= FAIL else f"{value}%"


def summary(system: str, table: dict[int, Row]) -> list[str]:
    missing = sorted(set(range(1, QUESTIONS + 1)) - set(table))
    if missing:
        raise ValueError(f"{system}: no row for questions {missing}")
    every = [table[q] for q in range(1, QUESTIONS + 1)]
    path = [r for r in every if r.on_path]

    def count(of: list[Row]) -> str:
        kinds = [r.kind for r in of]
        gaps = kinds.count("gap")
        unknowns = kinds.count("unknown")
        return (f"{kinds.count('met')} met, {gaps} {'gap' if gaps == 1 else 'gaps'}, "
                f"{unknowns} {'unknown' if unknowns == 1 else 'unknowns'}")

    unknowns = [r for r in path if r.kind == "unknown"]
    fails = [f"Q{r.q}" for r in path if r.fails]
    fails += [f"Q{r.q} (unknown; FAIL at its better reading)" for r in unknowns if r.readings()[0] >= FAIL]
    costs = [f"Q{r.q} {r.penalty}%" if r.penalty else f"Q{r.q} {r.readings()[0]}% (unknown, its better reading)"
             for r in path if r.penalty or (r.kind == "unknown" and 0 < r.readings()[0] < FAIL)]
    total = sum(r.penalty for r in path) + sum(r.readings()[0] for r in unknowns if r.readings()[0] < FAIL)
    lines = [
        f"{system}",
        f"  All {QUESTIONS} questions:     {count(every)}",
        f"  On the path:           {len(path)} questions: {count(path)}",
        f"  FAILs on the path:     {len(fails)}" + (f" ({', '.join(fails)})" if fails else ""),
        f"  Penalties on the path: {total}% over {len(costs)} {'answer' if len(costs) == 1 else 'answers'}"
        + (f" ({', '.join(costs)})" if costs else "") + "; over 100% fails",
    ]
    if unknowns:
        named = []
        for r in unknowns:
            good, bad = r.readings()
            worse = "no cost recorded" if bad is None else _percent(bad)
            named.append(f"Q{r.q} ({_percent(good)} at the better reading, {worse} at the worse)")
        lines.append(f"  Unknowns on the path:  {', '.join(named)}")
    return lines


def totals(text: str) -> str:
    main, dutch = rows(text)
    lines = summary("Dubov system (C.04.4.1): the application's rows and the engine's (Q16-Q39)", main)
    lines += summary("Dutch system (C.04.3): the same rows, the Dutch section's in place of theirs",
                     {**main, **dutch})
    return "\n".join(lines)


def block_in(text: str) -> str:
    """The summary block the document shows (between its two markers)."""
    start, end = text.index(BEGIN), text.index(END)
    body = text[start + len(BEGIN):end].strip("\n")
    return body.removeprefix("```\n").removesuffix("\n```")


def _tests_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}


def missing_tests(text: str, root: Path = CHECKLIST.parent.parent) -> list[str]:
    """The tests the rows cite that do not exist.  ``tests/x.py::test_name`` is looked up
    in that file; ``::test_name`` and a bare ``test_vcl_...`` in the file the row named
    last, or anywhere under tests/ when the row names none; a name ending in ``…`` or
    ``*`` or ``...`` stands for the tests it begins."""
    everywhere: dict[str, set[str]] = {}
    for path in sorted((root / "tests").rglob("test_*.py")):
        everywhere[path.relative_to(root).as_posix()] = _tests_in(path)
    problems = []
    for line in text.splitlines():
        if not line.startswith("|"):
            continue
        q = line.strip("| ").split("|")[0].strip()
        last = None
        for found in re.finditer(r"(tests/[\w/]+\.py)|::(test_\w+)(…|\*|\.\.\.)?|\b(test_vcl_\w+)(…|\*|\.\.\.)?", line):
            if found.group(1):
                last = found.group(1)
                if last not in everywhere:
                    problems.append(f"Q{q}: {last} does not exist")
                continue
            name, prefix = found.group(2) or found.group(4), found.group(3) or found.group(5) or ""
            files = [last] if last else list(everywhere)
            if not any(n == name or (prefix and n.startswith(name)) for f in files for n in everywhere.get(f, ())):
                problems.append(f"Q{q}: {name}{prefix} is not a test" + (f" in {last}" if last else ""))
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path", nargs="?", type=Path, default=CHECKLIST)
    ap.add_argument("--check", action="store_true", help="exit 1 when the document's summary differs or a cited test does not exist")
    args = ap.parse_args(argv)
    text = args.path.read_text(encoding="utf-8")
    counted = totals(text)
    if not args.check:
        print(counted)
        return 0
    shown = block_in(text)
    if shown != counted:
        print(f"{args.path}: the summary is not what the rows give; it should read:\n{counted}", file=sys.stderr)
        return 1
    problems = missing_tests(text)
    for problem in problems:
        print(f"{args.path}: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
