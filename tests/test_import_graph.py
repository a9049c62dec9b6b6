"""The house's import graph (issue 28 §1): no new circle of imports among the installed packages.

Every import counts, at the top of a module or inside a function (a lazy import is still an
arrow back), and ``if TYPE_CHECKING:`` ones too. The circles that stand are listed below with the
reason each is kept; a new one fails, and so would one of these growing. Read the arrows with
``python -m tests.test_import_graph``.
"""

from __future__ import annotations

import ast
import sys
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("reference_engine", "conformance", "hakka_play", "hakka_rl")

KEPT = {
    # The events' base offers Event.parse (its repr evaluates as Event.parse('…')) and pickles an event
    # as its text: both need the parser, which knows every kind, and every kind imports the base.
    frozenset({"reference_engine.event_base", "reference_engine.events", "reference_engine.offers",
               "reference_engine.play_events"}),
    # A Hand answers notation(), observation() and the reason of a refusal, which live in modules of
    # their own that read a Hand (hand.py imports them when asked; rules.py for its types only).
    frozenset({"reference_engine.hand", "reference_engine.explain", "reference_engine.notation",
               "reference_engine.observation", "reference_engine.rules"}),
}


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            parts = path.relative_to(REPO).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` that ``name`` imports, anywhere in its code."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in known:  # a name in a module, or a module in a package
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
                break
    return out


@cache
def graph() -> dict[str, frozenset[str]]:
    """Each module and the modules it imports (read once per session)."""
    known = modules()
    return {name: frozenset(imports(name, path, known)) for name, path in known.items()}


def circles(edges: dict[str, frozenset[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[frozenset[str]] = []
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_no_circle_of_imports_but_those_kept_for_a_reason() -> None:
    found = circles(graph())
    new = [sorted(c) for c in found if c not in KEPT]
    assert not new, f"circles of imports: {new} (the harness has none; see this module's KEPT)"


def test_the_reader_sees_a_circle_when_there_is_one() -> None:
    edges = dict(graph())
    edges["conformance.loader"] = edges["conformance.loader"] | {"conformance.suite"}  # suite imports loader
    assert frozenset({"conformance.loader", "conformance.suite"}) <= next(
        c for c in circles(edges) if "conformance.loader" in c)


if __name__ == "__main__":
    for name, targets in sorted(graph().items()):
        print(name, "->", ", ".join(sorted(targets)))
    print("circles:", [sorted(c) for c in circles(graph())])
