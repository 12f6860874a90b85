"""Source-page parsing: a shard page that breaks its own fence contract is a typed error."""

from __future__ import annotations

import pytest

from tasks.ingest import shard_body_from_page
from tasks.store.errors import ContractError


def shard_page(meta: str, body: str) -> str:
    return f"---\n{meta}---\n\n{body}"


def test_the_fence_lines_are_removed_from_a_shard_body() -> None:
    page = shard_page("reopened_fence: \"```\\n\"\nclosed_fence: \"\\n```\"\n", "```\ncode\n\n```")
    assert shard_body_from_page(page) == "code\n"


@pytest.mark.parametrize(("meta", "body", "says"), [
    ("reopened_fence: \"```\\n\"\n", "code\n", "reopened_fence"),
    ("closed_fence: \"\\n```\"\n", "code\n", "closed_fence"),
])
def test_a_shard_page_missing_its_fence_line_raises_contract_error(meta: str, body: str,
                                                                   says: str) -> None:
    with pytest.raises(ContractError, match=says):
        shard_body_from_page(shard_page(meta, body))
