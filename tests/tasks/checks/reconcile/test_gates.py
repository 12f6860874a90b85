"""The per-page gates' shared look-ups (tasks/checks/reconcile/gates.py)."""

from __future__ import annotations

from pathlib import Path

from tasks.checks.reconcile import gates
from tasks.checks.reconcile.context import build_context
from tasks.checks.scan import scan_memory
from tests.memory_builder import PREFIX, build_healthy_memory, page_meta, write


def test_a_typed_link_target_is_resolved_once_per_check(tmp_path: Path, monkeypatch) -> None:
    root = tmp_path / "memory"
    build_healthy_memory(root)
    for n in (1, 2):  # two pages naming the same missing hub, one naming the concepts hub
        meta = page_meta("concept", f"Topic {n}", "wiki/concepts/index.md")
        if n == 2:
            meta["child_of"] = ["wiki/nowhere/index.md"]
        meta["derived_from"] = ["wiki/nowhere/index.md"]
        write(root, f"wiki/concepts/{PREFIX}__topic-{n}.md", meta, f"# Topic {n}\n")
    scan = scan_memory(root)
    context = build_context(scan)
    looked_up: list[str] = []
    resolve = gates._resolve_typed
    monkeypatch.setattr(gates, "_resolve_typed",
                        lambda s, target, *rest: looked_up.append(target) or resolve(s, target,
                                                                                    *rest))
    findings, _ = gates.check_pages(scan, context)
    # every target once, however many pages name it (wiki/concepts/index.md: a dozen pages)
    assert sorted(looked_up) == sorted(set(looked_up))
    assert context.resolved_targets["wiki/nowhere/index.md"] is None
    assert context.resolved_targets["wiki/concepts/index.md"] == "wiki/concepts/index.md"
    # still one finding per page and link: both pages' dead derived_from, page 2's child_of
    dead = sorted((f.path, f.message) for f in findings if f.code == "dead_link")
    assert dead == sorted([
        (f"wiki/concepts/{PREFIX}__topic-1.md",
         "derived_from link 'wiki/nowhere/index.md' points at no file"),
        (f"wiki/concepts/{PREFIX}__topic-2.md",
         "derived_from link 'wiki/nowhere/index.md' points at no file"),
        (f"wiki/concepts/{PREFIX}__topic-2.md",
         "child_of link 'wiki/nowhere/index.md' points at no file")])
    assert f"wiki/concepts/{PREFIX}__topic-2.md" in {f.path for f in findings
                                                      if f.code == "orphan_page"}
    assert context.tally.dead_links == 3
