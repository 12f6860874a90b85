"""Common technologies known by name (tasks/extract/technologies.py): matched in any case
unless the name is an English word too; "Go" only where the context says it is the language."""

from __future__ import annotations

from tasks.extract.technologies import known_technologies, usual_spelling, vendor_alias


def _found(*lines: str) -> dict[str, list[str]]:
    seen = known_technologies(list(enumerate(lines, start=1)))
    return {key: [written for _, written in hits] for key, hits in seen.items()}


def test_names_that_are_no_english_word_match_in_any_case() -> None:
    found = _found("We restarted postgres and then Redis.", "The kafka consumers and ETCD lagged.")
    assert found == {"postgres": ["postgres"], "redis": ["Redis"], "kafka": ["kafka"], "etcd": ["ETCD"]}
    assert usual_spelling("postgres") == "Postgres"
    assert usual_spelling("fluent  bit") == "Fluent Bit"
    assert usual_spelling("kettle") is None


def test_english_words_match_only_as_written() -> None:
    assert _found("the vault door; rust on the harbor wall; a spark") == {}
    assert _found("secrets live in Vault; images in Harbor") == {"vault": ["Vault"], "harbor": ["Harbor"]}


def test_names_inside_paths_urls_and_longer_words_do_not_match() -> None:
    assert _found("see rust-lang/rust and https://github.com/x/y, gitlabs, redis-cli") == {}
    assert _found("Argo CD synced; the Fluent Bit pod") == {"argo cd": ["Argo CD"], "fluent bit": ["Fluent Bit"]}


def test_go_is_the_language_only_in_context() -> None:
    assert _found("Go to the dashboard. Go ahead and restart it.") == {}
    found = _found("Generics in Go are new.", "Go programs compile fast; Go 1.18 added them.", "Go's syntax")
    assert found == {"go": ["Go", "Go", "Go", "Go"]}


def test_a_name_of_two_words_is_one_name() -> None:
    # the bare name, where the text also writes it with its vendor's, is the vendor's name
    assert _found("backups go to Amazon S3 nightly; S3 is cheap") == {"amazon s3": ["Amazon S3", "Amazon S3"]}


def test_a_vendor_prefixed_name_is_the_name_with_its_bare_name_as_alias() -> None:
    found = _found("Metadata goes to Amazon Aurora (PostgreSQL-compatible).", "Aurora keeps it.",
                   "We run Apache Airflow; Airflow schedules dbt.")
    assert found["amazon aurora"] == ["Amazon Aurora", "Amazon Aurora"]
    assert found["apache airflow"] == ["Apache Airflow", "Apache Airflow"]
    assert "aurora" not in found and "airflow" not in found
    assert _found("Aurora keeps it.") == {"aurora": ["Aurora"]}
    assert vendor_alias("Amazon Aurora") == ["Aurora"] and vendor_alias("Google Cloud") == []


def test_a_code_host_named_only_as_the_issue_tracker_is_not_counted() -> None:
    assert "github" not in _found("A contributor filed an issue on GitHub.", "Issue tracker: [GitHub](x)")
    assert _found("We moved CI from Jenkins to GitHub Actions and GitHub.")["github"] == ["GitHub"]


def test_a_cloud_name_that_opens_a_product_is_the_product() -> None:
    found = known_technologies([(1, "It reads Google Cloud Spanner and Azure Key Vault."), (2, "Spanner is slow.")])
    assert {key: [w for _, w in hits] for key, hits in found.items()} == {
        "google cloud spanner": ["Google Cloud Spanner", "Google Cloud Spanner"],
        "azure key vault": ["Azure Key Vault"],
    }


def test_a_cloud_product_named_for_another_goes_on_through_for() -> None:
    found = known_technologies([(1, "Aidbox stays on Azure Database for PostgreSQL Flexible Server."),
                                (2, "Its data lives in Azure Database for"), (3, "PostgreSQL.")])
    assert found["azure database for postgresql"] == [(1, "Azure Database for PostgreSQL"),
                                                      (2, "Azure Database for PostgreSQL")]
    assert "azure database" not in found and found["postgresql"] == [(3, "PostgreSQL")]  # the wrapped line's


def test_search_engines_machine_learning_and_table_formats_are_known() -> None:
    found = _found("Listings move from solr to Vespa; the ranker is an xgboost model served next to a FAISS index.",
                   "Tables are Apache Iceberg, events Avro.")
    assert found == {"solr": ["solr"], "vespa": ["Vespa"], "xgboost": ["xgboost"], "faiss": ["FAISS"],
                     "apache iceberg": ["Apache Iceberg"], "avro": ["Avro"]}
    assert usual_spelling("lightgbm") == "LightGBM" and usual_spelling("delta lake") == "Delta Lake"
