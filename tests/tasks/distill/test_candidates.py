"""merge_candidates folds a run's weaker guesses into the inbox without touching a file."""

from __future__ import annotations

from schemas.distill_inbox import CandidateInbox, DistillCandidate, TombstoneList
from tasks.distill.candidates import MAX_CANDIDATE_EVIDENCE, merge_candidates
from tasks.distill.resolve import Forgotten, Resolver
from tasks.extract import CandidateFact, Extraction, NameRef, SourceRef
from tasks.store.graph_store import empty_registry

NOW = "2026-03-24T22:40:05Z"


def extraction(asset: str, *facts: CandidateFact) -> Extraction:
    return Extraction(SourceRef(asset * 64, f"wiki/sources/{asset}.md", f"raw/{asset}.md"),
                      candidates=list(facts))


def phrase(term: str, line: int) -> CandidateFact:
    return CandidateFact(term, "capitalized_phrase", line, f"... {term} ...")


def test_counted_once_per_asset_evidence_capped_in_order() -> None:
    resolver = Resolver(empty_registry(NOW), Forgotten(TombstoneList()))
    runs = [extraction(a, phrase("Shared Gateway", line)) for a, line in
            (("d", 4), ("c", 3), ("b", 2), ("a", 9), ("a", 1))]
    inbox = merge_candidates(CandidateInbox(candidatesGeneratedAtUtc=NOW), runs, resolver,
                             resolver.forgotten)
    (gateway,) = inbox.candidates
    assert gateway.occurrences == 4  # asset "a" counted once
    assert gateway.rawAssetIds == sorted(a * 64 for a in "abcd")
    assert len(gateway.evidence) == MAX_CANDIDATE_EVIDENCE
    assert [e.sourcePage for e in gateway.evidence] == [
        "wiki/sources/a.md", "wiki/sources/b.md", "wiki/sources/c.md"]


def test_registered_and_forgotten_terms_leave_rare_code_terms_wait() -> None:
    resolver = Resolver(empty_registry(NOW), Forgotten(TombstoneList.model_validate(
        {"tombstones": [{"topic": "Old Secret", "reason": "r", "tombstonedAtUtc": NOW}]})))
    resolver.resolve(NameRef(("Shared Gateway",), "service", 1))
    known = CandidateInbox(candidatesGeneratedAtUtc=NOW, candidates=[
        DistillCandidate(term="Old Secret", kind="capitalized_phrase", occurrences=3)])
    inbox = merge_candidates(known, [extraction("a", phrase("Shared Gateway", 1),
                                                CandidateFact("edge-proxy", "code_term", 2, "x"))],
                             resolver, resolver.forgotten)
    assert inbox.candidates == []
    assert [c.term for c in inbox.pendingCandidates] == ["edge-proxy"]
