"""A link to where a moved page used to be finds the page (tasks/extract/former_paths.py, its
former paths kept as aliases; tasks/distill/record_graph.RecordIndex), whichever was distilled
first; a link to a path no page had stays unresolved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from schemas.graph import RegistryEntry
from tasks.distill.record_graph import RecordIndex
from tasks.extract.record_links import RELATES_TO, RecordLink
from tests.stored_sources import bootstrap
from tests.tasks.distill.test_record_graph import distill_in_runs, relations

MOVED = ("# Boiler gateway architecture\n\n> **Note:** this page moved here from `platform/boiler-gateway.md` "
         "when the platform space was retired.\n\n## Overview\n\nThe gateway polls every boiler over Modbus.\n\n"
         "## Constraints\n\n- The gateway must never write to a boiler.\n")
LINKING = ("# Boiler offline\n\n## Alert\n\nNo reading from a boiler for ten minutes.\n\n## Mitigate\n\n"
           "1. Check the gateway pair; see the [boiler gateway overview](../platform/boiler-gateway.md).\n"
           "2. Restart the agent on the active gateway.\n")


@pytest.mark.parametrize("runs", ["one run", "the page first", "the link first"])
def test_a_link_to_a_moved_pages_former_path_relates_to_the_page(tmp_path: Path, runs: str) -> None:
    root = tmp_path / ".memories"
    bootstrap(root)
    distill_in_runs(root, ("kb/shared/boiler-gateway-architecture.md", MOVED),
                    ("kb/runbooks/boiler-offline.md", LINKING), runs)
    pairs = {(source, target) for source, _kind, target in relations(root)}
    assert ("Boiler offline", "Boiler gateway architecture") in pairs
    registry = json.loads((root / "context/entity-registry.jsonc").read_text())
    page_entry = next(e for e in registry["entries"] if e["canonicalName"] == "Boiler gateway architecture")
    assert "platform/boiler-gateway.md" in page_entry["aliases"]


def test_only_a_path_the_page_states_it_had_finds_it() -> None:
    moved = RegistryEntry.model_validate({"canonicalName": "Boiler gateway architecture", "entityType": "document",
                                          "recordKey": "boiler-gateway-architecture", "recordLog": "kb/shared",
                                          "aliases": ["/ops/gateway-overview/", "BGW"]})
    index = RecordIndex.build([moved])

    def link(folder: str, stem: str) -> RecordLink:
        return RecordLink(RELATES_TO, False, "the overview", stem, None, 1, "x", folder)

    assert index.resolve(link("kb/ops", "gateway-overview"), "kb/runbooks") is moved
    assert index.resolve(link("*/ops", "gateway-overview"), "kb/runbooks") is moved  # by URL
    assert index.resolve(link("kb/ops", "gateway-runbook"), "kb/runbooks") is None
    assert index.resolve(link("kb/ops", "bgw"), "kb/runbooks") is None  # a name is no path
