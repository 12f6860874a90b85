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


@pytest.mark.parametrize(("text", "second"), [
    ("How producers slow down.", None),
    ("Use e.g. Kafka, as J. Smith did in v1.1 (see fig. 3).", None),
    ("The U.S. team owns it; it is fast.", None),
    ("Uploads are retried. The planner owns it.", "The planner owns it."),
    ('It says "stop." Then it stops.', "Then it stops."),
    ("Retries stop at 3. 5 is the hard cap.", "5 is the hard cap."),
    ("Why? Because.", "Because."),
    ("上传会重试。规划器负责。", "规划器负责。"),
])
def test_second_sentence_finds_where_a_description_goes_on(text: str, second: str | None) -> None:
    from schemas.page import second_sentence

    assert second_sentence(text) == second


def test_pkf_version_is_1_1_when_given() -> None:
    assert Proposal.model_validate(proposal(pkfVersion=1.1)).pkfVersion == "1.1"
    assert Proposal.model_validate(proposal()).pkfVersion is None
    for bad in ("1.0", "", 2):
        with pytest.raises(ValidationError, match="pkfVersion"):
            Proposal.model_validate(proposal(pkfVersion=bad))
