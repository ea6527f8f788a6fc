"""The arrows of docs/architecture.md point down only: views -> services and reports ->
models and engine.  Read from the source (imports anywhere in a module, also inside
functions), so a new import that points up fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PAIRING = Path(__file__).resolve().parent.parent / "pairing"

# layer -> pairing subpackages/modules it must not import
FORBIDDEN = {
    "engine": {"models", "services", "reports", "views", "forms", "access", "admin", "tiebreaks"},
    "models": {"services", "reports", "views", "forms", "access", "admin", "tasks", "worker"},
    "services": {"views", "forms", "access", "admin", "tasks", "worker"},
    "reports": {"views", "forms", "access", "admin", "tasks", "worker"},
    # forms validate and build rows; saving what they built is the services' work
    "forms": {"services", "reports", "views", "admin", "tasks", "worker"},
    # background tasks are entry points beside the views: they call services
    "tasks": {"views", "forms", "access", "admin", "worker"},
    "worker": {"views", "forms", "access", "admin"},
    "tiebreaks": {"models", "services", "reports", "views", "forms", "access", "admin"},
}
# the one part of the services a report may use: the read-only snapshot builder
REPORTS_MAY_USE = {"services.snapshot"}
# the engine's command line checks a file's standings with the app's tie-break code
# (VCL4THP Q21); the pairing code itself never ranks
ENGINE_CLI = {"engine/__main__.py", "engine/cli_tools.py"}
ENGINE_CLI_MAY_USE = {"tiebreaks"}


def _imports(path: Path, package: str) -> set[str]:
    """Every ``pairing.X[.Y]`` a module imports, as ``X[.Y]`` (relative imports resolved)."""
    tree = ast.parse(path.read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            names = [f"{module}.{a.name}" for a in node.names]  # what is imported, e.g. pairing.services.rounds
        else:
            continue
        for name in names:
            if name.startswith("pairing."):
                found.add(name[len("pairing."):])
    return found


def _modules(layer: str):
    root = PAIRING / layer
    paths = sorted(root.rglob("*.py")) if root.is_dir() else [PAIRING / f"{layer}.py"]
    for path in paths:
        rel = path.relative_to(PAIRING.parent).with_suffix("")
        parts = list(rel.parts)
        package = ".".join(parts if path.name == "__init__.py" else parts[:-1])
        if path.name == "__init__.py":
            package = ".".join(parts[:-1])
        yield path, package


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_no_arrow_points_up(layer):
    wrong = []
    for path, package in _modules(layer):
        for name in _imports(path, package):
            top = name.split(".")[0]
            if top in FORBIDDEN[layer]:
                if layer == "reports" and any(name == m or name.startswith(m + ".") for m in REPORTS_MAY_USE):
                    continue
                if str(path.relative_to(PAIRING)) in ENGINE_CLI and top in ENGINE_CLI_MAY_USE:
                    continue
                wrong.append(f"{path.relative_to(PAIRING.parent)} imports pairing.{name}")
    assert not wrong, "\n".join(wrong)


def test_reports_use_no_service_that_changes_anything():
    for path, package in _modules("reports"):
        for name in _imports(path, package):
            if name.startswith("services"):
                assert any(name == m or name.startswith(m + ".") for m in REPORTS_MAY_USE), (path, name)


def test_the_check_sees_a_relative_import_that_points_up(tmp_path):
    """The checker itself: ``from ..services import rounds`` inside pairing/models is seen."""
    module = tmp_path / "bad.py"
    module.write_text("def f():\n    from ..services import rounds\n")
    assert "services.rounds" in _imports(module, "pairing.models")


def _service_graph() -> dict[str, set[str]]:
    """``services.X`` -> the ``services.Y`` it imports (anywhere in the module)."""
    graph: dict[str, set[str]] = {}
    for path, package in _modules("services"):
        me = "services." + path.stem if path.name != "__init__.py" else "services"
        out = set()
        for name in _imports(path, package):
            parts = name.split(".")
            if parts[0] == "services" and len(parts) > 1 and (PAIRING / "services" / f"{parts[1]}.py").exists():
                out.add("services." + parts[1])
        graph[me] = out - {me}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of ``graph`` (as a path that comes back to its start), or []."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


def test_services_depend_on_each_other_in_one_direction():
    """No import cycle among the service modules (imports inside functions count): a step
    two services share lives in a lower module (drafts, events), not in one of them."""
    cycle = _cycle(_service_graph())
    assert not cycle, " -> ".join(cycle)


def test_the_cycle_check_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) == []
