"""The proposal contract on its own: spellings, required parts, and its JSON Schema."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from schemas.proposal import REJECTION_CODES, Placement, Proposal, proposal_json_schema
from tests.proposal_fixtures import proposal


def test_spec_op_names_are_accepted_as_placement_kinds() -> None:
    page = {"page": "wiki/concepts/x.md", "section": "a"}
    assert Placement.model_validate({"kind": "rewrite-section", **page}).kind == "extend_section"
    assert Placement.model_validate({"kind": "append-section", **page}).kind == "append_section"


@pytest.mark.parametrize(
    ("placement", "missing"),
    [
        ({"kind": "new_leaf"}, "hub"),
        ({"kind": "extend_section", "page": "wiki/x.md"}, "section"),
        ({"kind": "append_section", "section": "a"}, "page"),
    ],
)
def test_each_placement_kind_names_what_it_needs(placement: dict[str, str], missing: str) -> None:
    with pytest.raises(ValidationError, match=f"`{missing}`"):
        Placement.model_validate(placement)


def test_a_valid_proposal_and_what_it_refuses() -> None:
    assert Proposal.model_validate(proposal()).placement.hub == "wiki/synthesis"
    for bad in (
        proposal(type="index"),
        proposal(body="  \n"),
        proposal(unknown=1),
        proposal(deliverableSource={"assetId": "x", "contentHash": "h", "sizeBytes": True}),
    ):
        with pytest.raises(ValidationError):
            Proposal.model_validate(bad)


def test_json_schema_and_codes_are_stable() -> None:
    schema = proposal_json_schema()
    assert {"title", "description", "type", "memory", "placement", "body"} <= set(
        schema["required"]
    )
    assert (
        REJECTION_CODES[0] == "evolution_metadata_required" and REJECTION_CODES[-1] == "duplicate"
    )
