"""Subject terms (tasks/extract/subject_terms.py): system phrases never open with a word that
describes, acts or relates; code that names an error type or a function is no name; minutes'
subject from their titles."""

from __future__ import annotations

from tasks.extract.subject_terms import (
    agent_nouns,
    apart_from_title,
    code_identifiers,
    generic_mention,
    hyphenated_names,
    is_file_name,
    is_placeholder,
    link_texts,
    mid_sentence,
    minutes_subject,
    named_once,
    only_as_label,
    series_key,
    slug_subject,
    starts_as_description,
    system_phrases,
    term_key,
    title_subject,
    written_as_kind,
    written_often,
)


def test_system_phrases_drop_prepositions_adjectives_and_state_participles() -> None:
    found = system_phrases([
        (1, "Users on an older SDK saw errors; without scheduler runs nothing happens."),
        (2, "The fixed SDK shipped; a multi-tenant cluster and a large cluster failed."),
        (3, "The shared cache and the content-addressed cache stay; the managed database too."),
    ])
    assert "older sdk" not in found and "without scheduler" not in found
    assert "fixed sdk" not in found and "multi tenant cluster" not in found and "large cluster" not in found
    assert {"shared cache", "content addressed cache", "managed database"} <= set(found)


def test_phrases_that_start_as_a_description() -> None:
    assert starts_as_description("older SDK")
    assert starts_as_description("without scheduler")
    assert starts_as_description("consider tracking SDK")
    assert starts_as_description("Generalized type")
    assert starts_as_description("released SDK")
    assert not starts_as_description("shared cache")
    assert not starts_as_description("Payments API")
    assert not starts_as_description("Grafana")


def test_code_naming_an_error_type_or_a_function_is_no_name() -> None:
    hits = {term: [(1, "")] * 3 for term in ["TypeError", "ValueException", "isDisabled", "getValue",
                                              "taskRef", "displayName", "PipelineTask", "orders-consumer"]}
    assert set(code_identifiers(hits)) == {"taskref", "displayname", "pipelinetask", "orders consumer"}


def test_minutes_subject_from_their_titles() -> None:
    assert minutes_subject(["Triage meeting 2021-05-11", "T-lang meeting agenda"], "") == "T-lang"
    assert minutes_subject(["Platform team weekly sync (2024-04-02)"], "") == "Platform team"
    prose = "We reviewed specialization. Specialization is unsound; specialization needs work."
    assert minutes_subject(["Specialization Review, 2020-02-03"], prose) == "Specialization"
    assert minutes_subject(["Infrastructure sync, 2024-05-14"], "infrastructure once") is None
    assert minutes_subject(["Weekly meeting"], "") is None


def test_written_often_counts_whole_words_in_any_case() -> None:
    assert written_often("Matrix", "matrix, a Matrix and matrixes; the matrix-task; MATRIX", 3)
    assert not written_often("Matrix", "matrix, a Matrix and matrixes; the matrix-task", 3)


def test_system_phrases_keep_names_whole_and_skip_verbs_and_item_openers() -> None:
    found = system_phrases([
        (1, "The rate limit service timed out; we restarted the rate limit service."),
        (2, "If the cluster stores its events in etcd, lower their retention."),
        (3, "- Define deployment strategy for the flags service"),
        (4, "Build workers share one cache."),
    ])
    assert "rate limit service" in found and "limit service" not in found  # no fragment
    assert "cluster store" not in found  # "stores its events": a verb
    assert "define deployment" not in found and "flags service" in found  # an item opens with a verb
    assert "build worker" in found  # a sentence of prose opens with a name
    more = system_phrases([(1, "Ingesters store recent samples in a first-in/first-out queue (FIFO).")])
    assert not more  # a plural acting ("Ingesters store"), a describing compound ("first-out")


def test_system_phrases_end_in_a_portal_a_connector_or_an_allocator() -> None:
    found = system_phrases([
        (1, "Brokers submit claims through the broker portal; the NPX connector relays port orders."),
        (2, "Tessera gets a second allocator next to the list allocator: a minimisation allocator."),
    ])
    assert {"broker portal", "npx connector", "list allocator", "minimisation allocator"} <= set(found)
    assert "second allocator" not in found  # a count describes, it names nothing


def test_adjective_phrases_start_as_a_description() -> None:
    assert starts_as_description("Gradual deployment") and starts_as_description("long-term storage")
    assert not starts_as_description("local cache") and not starts_as_description("public API")


def test_words_capitalized_only_where_sentences_open() -> None:
    assert not mid_sentence("Update", ["Update the map with lumenctl.", "- Update notes", "**Update**: x"])
    assert not mid_sentence("Error", ["1. Error budgets are tracked", "### Error handling", "– Error rates"])
    assert mid_sentence("Kubernetes", ["Kubernetes restarted it.", "We run on Kubernetes."])
    assert not mid_sentence("Kube", ["We run on Kubernetes."])  # part of a longer word


def test_placeholders_and_file_names_are_no_subjects() -> None:
    assert all(is_placeholder(n) for n in ["Foo", "foo", "FooBar", "MyStruct", "SomeOtherTrait", "TheTrait"])
    assert not any(is_placeholder(n) for n in ["Go", "Theory", "Mystery", "Something", "Tekton", "Ord"])
    assert all(is_file_name(n) for n in ["Dockerfile", "Makefile", "Jenkinsfile", "values.yaml", "README"])
    assert not any(is_file_name(n) for n in ["Profile", "Node.js", "Socket.io", "Tekton", "Booking.com",
                                             "Authorize.net"])


def test_title_subject_stops_where_what_happened_starts() -> None:
    assert title_subject("Incident report: API errors after a cache failover") == "API"
    assert title_subject("Outage of the login service during a deploy") == "login service"
    assert title_subject("Postmortem: Login service outage") == "Login service"


def test_slug_subject_of_a_design_document() -> None:
    prose = "Generics are types with parameters. Generics help. We add generics; generics are new."
    assert slug_subject("15292-generics", prose) == "Generics"
    assert slug_subject("0107-propagating-parameters", "parameters " * 4) == "parameters"
    assert slug_subject("0076-array-result-types", "types " * 9) is None  # a tail word alone says nothing
    assert slug_subject("0033-tekton-feature-gates", "feature gates, " * 4) == "feature gates"


def test_agent_nouns_in_the_plural_are_sibling_components() -> None:
    found = agent_nouns([(1, "blocks uploaded by ingesters"), (2, "all ingesters and users"),
                         (3, "number of ingesters; users and developers"), (4, "users developers")])
    assert set(found) == {"ingester"}


def test_a_comparative_after_the_is_no_agent_noun() -> None:
    # Go's generics overview: "avoid the problems in the earlier ones" -> a component "earlier"
    found = agent_nouns([(1, "The draft avoids the problems in the earlier ones."),
                         (2, "Unlike the earlier design, the dispatcher reads it."),
                         (3, "Then the dispatcher and the larger cluster agree.")], plurals=False)
    assert set(found) == {"dispatcher"}


def test_a_gerund_after_a_determiner_names_what_a_system_does() -> None:
    found = system_phrases([(1, "Page the billing team; the logging pipeline and the running jobs.")])
    assert {"billing team", "logging pipeline"} == set(found)  # "running": a state
    assert not starts_as_description("billing team") and starts_as_description("Running jobs")


def test_title_subject_at_prepositions_and_without_a_state() -> None:
    assert title_subject("Sidecar containers for batch Jobs", at_prepositions=True) == "Sidecar containers"
    assert title_subject("Postmortem: search unavailable after index migration") == "search"


def test_a_system_phrase_that_wraps_onto_the_next_line() -> None:
    found = system_phrases([(1, "This KEP lets the kubelet stop sidecar"),
                            (2, "containers once the main containers of a Pod have terminated."),
                            (3, "The session"), (4, "Store is down.")])
    assert set(found) == {"sidecar container", "session store"}
    assert found["sidecar container"] == [(1, "sidecar container")]


def test_a_phrase_whose_first_words_end_the_line_before() -> None:
    found = system_phrases([(1, "The on-call engineer restarted the rate"),
                            (2, "limit service pods."), (3, "- a list item ends with the"),
                            (4, "Session store: a new sentence, no phrase carried.")])
    assert found["rate limit service"] == [(2, "rate limit service")]
    assert "limit service" not in found and "session store" in found


def test_a_kind_of_thing_is_no_system() -> None:
    assert generic_mention("cold cache", "The canary ran against a cold cache.")
    assert generic_mention("product team", "The backend of every product team calls it.")
    assert generic_mention("backend service", "The backend service has no way to resume.")
    assert not generic_mention("build worker", "Each build worker warms its local cache.")
    assert not generic_mention("inventory cache", "The inventory cache expired all keys.")


def test_ticket_keys_labels_and_setting_links_are_no_subjects() -> None:
    text = "See OPS-7781 and DEP 42, RFC: 17. Amazon EC2 and S3, SEV-2, HTTP 1.1."
    assert [word for word in ["OPS", "DEP", "RFC", "EC2", "S3", "SEV", "HTTP", "See"] if series_key(word, text)] == [
        "OPS", "DEP", "RFC"]
    text = "This OEP moves the poolers (see DTP 3 and DTP 9). SEV 2 only; this NFS mount, This OID exhaustion."
    assert [word for word in ["OEP", "DTP", "SEV", "NFS", "OID"] if series_key(word, text)] == ["OEP", "DTP"]
    assert series_key("LEP", "LEP: 9\n\nThis LEP was rejected on 12 May.")
    assert only_as_label("Error", ['Customers saw "Error: payment could not be processed".'])
    assert not only_as_label("Error", ["Error: none", "a reader of Error budgets"])
    assert not only_as_label("Rust", ["Rust::Vec is a path"])
    found = link_texts([(1, "Set the [distributor argument](./config.md#d) and [`--part-size`](./flags.md);"
                            " the [querier](./querier.md) reads it.")])
    assert set(found) == {"querier"}


def test_hyphenated_names_in_plain_prose() -> None:
    found = hyphenated_names([(1, "The order-router could not reach ceph-csi 3.11; a long-term fix."),
                              (2, "A built-in, user-defined key-value store of open-source packages."),
                              (3, "See `git-clone` and [kaniko-task](https://x/y-z) and [ref-label][a-b].")])
    assert set(found) == {"order-router", "ceph-csi"}


def test_a_phrase_written_only_in_the_plural_or_after_each_names_a_kind() -> None:
    assert written_as_kind("Product service", "Users wait.\nProduct services publish events.")
    assert written_as_kind("product team", "for every product team; each product team owns one")
    assert written_as_kind("proxy registry", "two proxy registries")
    assert not written_as_kind("product team", "every product team; the product team owns it")
    assert not written_as_kind("session store", "the session store")
    assert written_as_kind("rate service", "a rate\nservice")  # across a line break too
    assert not written_as_kind("rate service", "the rate limiter")  # not written


def test_a_code_name_keeps_its_plural_unless_its_singular_is_written_too() -> None:
    hits = {"order-events": [(3, "order-events"), (9, "order-events")],
            "PipelineTasks": [(4, "PipelineTasks")], "PipelineTask": [(5, "PipelineTask")]}
    seen = code_identifiers(hits)
    assert [name for _, name in seen[term_key("order-events")]] == ["order-events", "order-events"]
    assert len(seen[term_key("PipelineTask")]) == 2  # one name, written two ways


def test_the_letter_first_patterns_match_as_the_boundary_first_ones() -> None:
    # _CAPITALIZED_RE and _AGENT_RE open with their letter (for speed) and check the word
    # boundary behind it: the same matches as the patterns written with a leading \b
    import re

    from tasks.extract.subject_terms import _AGENT_RE, _CAPITALIZED_RE

    text = ("Kube at start. xKube, _Kube, -Kube, é Kube; The dispatcher and the compactor.\n"
            "bathe ingester, Othe indexer, lathe router, the\tscheduler; THE builder")
    for fast, plain in ((_CAPITALIZED_RE, r"\b[A-Z][A-Za-z]*\b"),
                        (_AGENT_RE, r"\b[Tt]he\s+([a-z]{4,}(?:er|or)s?)\b")):
        found = [(m.span(), m.groups()) for m in fast.finditer(text)]
        assert found == [(m.span(), m.groups()) for m in re.finditer(plain, text)]
        assert len(found) >= 3


def test_people_by_their_post_are_no_agent_nouns_in_the_singular_or_plural() -> None:
    # a design doc of inspection booking: "the inspectors' tablet app", "the inspector keeps ..."
    found = agent_nouns([(1, "The assigner gives the inspectors their stops; the inspector keeps"),
                         (2, "their districts. Later the assigner and the inspectors agree.")], plurals=False)
    assert set(found) == {"assigner"}


def test_an_auxiliary_or_a_negation_is_no_modifier_of_a_head() -> None:
    found = system_phrases([(1, "- PermitHub never stores card numbers; the fee engine must cache fees.")])
    assert "permithub never store" not in found and "never store" not in found
    assert "fee engine" in found


def test_a_phrase_never_wraps_into_a_header_field_on_the_next_line() -> None:
    # a runbook's header lines: "**Service:** ... Airflow DAG" / "**Team:** Open Data"
    found = system_phrases([(1, "**Service:** CKAN and the `publish_dataset` Airflow DAG"),
                            (2, "**Team:** Open Data, Office of Data and Analytics"),
                            (3, "Owner: the Airflow"), (4, "Team: Data Platform")])
    assert not any(key.endswith("team") for key in found)


def test_a_title_subject_cut_at_a_preposition_counts_only_where_written_apart() -> None:
    prose = "Follow the Code of Conduct. This code of conduct helps; report Code of Conduct breaches."
    assert not written_often("Code", apart_from_title("Code", "Code of Conduct", prose))
    sidecars = "Sidecar containers for batch Jobs stop; sidecar containers restart; Sidecar containers log."
    assert written_often("Sidecar containers",
                         apart_from_title("Sidecar containers", "Sidecar containers for batch Jobs", sidecars), 2)
    assert apart_from_title("Scheduler", "Scheduler architecture", prose) == prose  # no preposition cut


def test_a_unit_a_number_measures_in_is_no_modifier() -> None:
    found = system_phrases([(1, "A 30 minute schedule with a 20 minute job timeout left no margin."),
                            (2, "The 5 GB cache filled; the 500 ms proxy timeout fired; the billing job ran.")])
    assert "minute job" not in found and "gb cache" not in found and "ms proxy" not in found
    assert "billing job" in found


def test_the_first_word_of_a_quotation_that_goes_on_in_lower_case_opens_it() -> None:
    """heldout29's problem record: the saved report "Duplicate crew codes" is a title quoted,
    whose first word is capitalised as a sentence's is; a quoted name alone is still a name."""
    assert not named_once("Duplicate", ['the Performance team runs the saved report "Duplicate crew codes" and'])
    assert not named_once("Duplicate", ["the team runs the report “Duplicate crew codes” weekly"])
    assert named_once("Kestrel", ['messages queue in "Kestrel", our relay, for an hour'])
    assert named_once("Kestrel", ["messages queue in Kestrel, our relay, for an hour"])
