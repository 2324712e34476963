"""No import circle anywhere in ``playground``: the module graph (every ``import``, including
those inside functions and under ``TYPE_CHECKING``, as grimp reads them from the source) has no
strongly connected component of more than one module. A circle makes the import order decide
what works and hides which module owns what; the layers contract in ``pyproject.toml`` checks
the packages, this checks every module inside them too."""

from __future__ import annotations

import grimp

#: Circles another change removes; listed so this test can land first. Each entry must still be
#: a component of the graph or vanish, never grow.
ALLOWED: frozenset[frozenset[str]] = frozenset()


def strongly_connected(graph: grimp.ImportGraph) -> list[list[str]]:
    """The components of more than one module (Tarjan's algorithm, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append(
                        (child, iter(sorted(graph.find_modules_directly_imported_by(child))))
                    )
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def test_the_package_has_no_import_circle() -> None:
    graph = grimp.build_graph("playground", cache_dir=None)
    assert "playground.core.gate" in graph.modules  # the graph is the package's, not empty
    circles = [c for c in strongly_connected(graph) if frozenset(c) not in ALLOWED]
    shown = "\n".join(" <-> ".join(c) for c in circles)
    assert circles == [], f"import circles (strongly connected components):\n{shown}"


def test_the_circle_finder_finds_a_circle() -> None:
    """The finder itself, on a graph with one circle of three, one of two and a chain."""
    graph = grimp.ImportGraph()
    for importer, imported in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("e", "f")]:
        graph.add_import(importer=importer, imported=imported)
    graph.add_import(importer="f", imported="e")
    assert strongly_connected(graph) == [["a", "b", "c"], ["e", "f"]]
