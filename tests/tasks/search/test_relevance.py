"""Relevance on three real ADR logs (shared/corpus): each ADR's title without its number finds
that ADR's entity or source page in the top 3 for at least 90 % of ADRs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import CORPUS
from tests.tasks.search.relevance import ADR_LOGS, adr_cases, ingest_logs, top3_rate


@pytest.fixture(scope="module")
def corpus() -> Path:
    missing = [name for name in ADR_LOGS if not (CORPUS / name).is_dir()]
    if missing:
        pytest.fail(f"shared corpus missing: {', '.join(str(CORPUS / m) for m in missing)} "
                    "(the relevance test needs ../shared/corpus beside the repository)")
    return CORPUS


def test_adr_titles_find_their_record_in_the_top_3(corpus: Path, tmp_path: Path) -> None:
    layout = ingest_logs(tmp_path / "mem", corpus)
    cases = adr_cases(layout)
    assert len(cases) >= 60
    rate, missed = top3_rate(layout, cases)
    print(f"ADR title -> own record in top 3: {rate:.1%} of {len(cases)} ADRs; missed: {missed}")
    assert rate >= 0.90, missed
