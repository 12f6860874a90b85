from schemas.report import ArtifactRecord, GraphDelta, MemoryOperationReport, Problem


def make_report(**kwargs: object) -> MemoryOperationReport:
    return MemoryOperationReport(
        mode="bootstrap", memory_write_timestamp_utc="2026-03-24T22:40:05Z",
        utc_datetime_prefix="2026-03-24T22-40-05Z", **kwargs,
    )


def test_markdown_follows_output_contract() -> None:
    report = make_report(
        artifacts=[ArtifactRecord(path="index.md", why="catalog", action="created")],
        graph_delta=GraphDelta(entities_added_count=2),
    )
    text = report.to_markdown()
    for line in [
        "## Memory Operation", "- mode: bootstrap", "- status: success",
        "- memory_write_timestamp_utc: 2026-03-24T22:40:05Z", "- utc_datetime_prefix: 2026-03-24T22-40-05Z",
        "## Retrieved or Updated Artifacts", "- index.md: catalog", "## Graph Delta",
        "- entities_added_count: 2", "- superseded_records_count: 0", "## Memory Health",
        "- index_synced: yes", "- consistency_warnings: none",
    ]:
        assert line in text.splitlines(), line


def test_exit_code_and_changed() -> None:
    assert make_report().exit_code() == 0
    assert not make_report(artifacts=[ArtifactRecord(path="x", why="y", action="unchanged")]).changed
    assert make_report(artifacts=[ArtifactRecord(path="x", why="y", action="created")]).changed
    assert make_report(problems=[Problem(code="c", message="m")]).exit_code() == 1
    assert make_report(status="failed").exit_code() == 1


def test_json_round_trip() -> None:
    report = make_report(problems=[Problem(file="a.md", code="empty_file", message="file is empty")])
    assert MemoryOperationReport.model_validate_json(report.model_dump_json()) == report
