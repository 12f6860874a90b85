"""Capitalized phrases as candidates (tasks/extract/candidates.py): a number between a
product's words."""

from __future__ import annotations

from tasks.extract.candidates import CandidateHits


def _phrases(*lines: str) -> set[str]:
    hits = CandidateHits()
    for number, line in enumerate(lines, 1):
        hits.add_phrases(number, line, line)
    return set(hits.phrases)


def test_a_number_between_a_products_words_is_part_of_its_name() -> None:
    """Vendors write a product line or edition between a name's words; the words after the
    number are no phrase of their own."""
    found = _phrases("A package must pass Pinnacle 21 Enterprise validation first.",
                     "Invoices go to Dynamics 365 Business Central.", "Rules live in Amazon Route 53 Resolver.")
    assert {"Pinnacle 21 Enterprise", "Dynamics 365 Business Central", "Amazon Route 53 Resolver"} <= found
    assert not found & {"Pinnacle", "Enterprise", "Business Central", "Resolver"}


def test_a_date_a_part_a_year_or_a_release_ends_the_name_at_its_number() -> None:
    found = _phrases("On March 3 Alice Smith rolled back.", "Follow Step 2 Configure the broker.",
                     "In 2024 Acme Corp bought it.", "We saw Kafka 3 Brokers restart.", "We run Camunda 8 in production.")
    assert {"Alice Smith", "Kafka", "Camunda"} <= found
    assert not any(any(ch.isdigit() for ch in phrase) for phrase in found), found


def test_a_kind_or_an_acronym_after_the_number_is_no_part_of_the_name() -> None:
    found = _phrases("Hosts run RHEL 8 VMs today.", "OrderFlow moves to Camunda 8 SaaS-free self-managed.",
                     "Calls to the Route 53 API failed.")
    assert not any(any(ch.isdigit() for ch in phrase) for phrase in found), found


def test_a_company_named_by_its_web_domain_is_one_phrase() -> None:
    """"Booking.com" and "Authorize.net" are names; a host's further parts, a path, a file or a
    dotted name of two capitalized words (GOV.UK) are not."""
    found = _phrases("Tidewater stopped pushing to Booking.com for two hours.",
                     "Cards are charged through Authorize.net, as before.",
                     "See Docs.com/setup and Status.com.au for the rest.", "Read Config.yaml first.",
                     "Guidance on GOV.UK says so.")
    assert {"Booking.com", "Authorize.net"} <= found
    assert not found & {"Booking", "Docs.com", "Status.com", "Config.yaml", "GOV.UK", "GOV"}, found
