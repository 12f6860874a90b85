"""The candidates inbox (context/distill-candidates.jsonc): weaker guesses a person may promote.

Pure: `merge_candidates` folds one run's candidate facts into the loaded inbox; the single
writer saves it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from schemas.distill_inbox import CandidateEvidence, CandidateInbox, DistillCandidate
from schemas.graph import entity_key
from tasks.distill.resolve import Forgotten, Resolver
from tasks.extract import CandidateFact, Extraction, SourceRef

MAX_CANDIDATE_EVIDENCE = 3

_Where = tuple[str, int, str]  # source page, line, raw asset id: evidence order


@dataclass
class _Term:
    """One candidate term while merging: the raw assets that counted it and its evidence."""

    candidate: DistillCandidate
    assets: set[str] = field(default_factory=set)
    evidence: dict[_Where, CandidateEvidence] = field(default_factory=dict)

    def count(self, source: SourceRef, fact: CandidateFact, new: bool) -> None:
        """Count `fact` once per raw asset (a re-read with --all counts nothing again) and keep
        the first MAX_CANDIDATE_EVIDENCE places in evidence order."""
        if not new:
            if source.asset_id in self.assets:
                return
            self.candidate.occurrences += fact.count
        self.assets.add(source.asset_id)
        where = (source.source_page, fact.line, source.asset_id)
        evidence = self.evidence
        if where in evidence or (len(evidence) >= MAX_CANDIDATE_EVIDENCE and where > max(evidence)):
            return
        evidence[where] = CandidateEvidence(sourcePage=source.source_page,
                                            rawAssetId=source.asset_id, lineStart=fact.line,
                                            lineEnd=fact.line, excerpt=fact.excerpt)
        if len(evidence) > MAX_CANDIDATE_EVIDENCE:
            del evidence[max(evidence)]


def merge_candidates(inbox: CandidateInbox, extractions: Sequence[Extraction],
                     resolver: Resolver, forgotten: Forgotten) -> CandidateInbox:
    """This run's weaker guesses merged into `inbox` in one pass, counted once per raw asset;
    terms now registered or forgotten leave it."""
    terms: dict[str, _Term] = {}
    for candidate in [*inbox.candidates, *inbox.pendingCandidates]:
        terms[entity_key(candidate.term)] = _Term(
            candidate, set(candidate.rawAssetIds),
            {(e.sourcePage, e.lineStart, e.rawAssetId): e for e in candidate.evidence})
    for extraction in extractions:
        for fact in extraction.candidates:
            key = entity_key(fact.term)
            term = terms.get(key)
            if term is None:
                terms[key] = term = _Term(DistillCandidate(term=fact.term, kind=fact.kind,
                                                           occurrences=fact.count))
                term.count(extraction.source, fact, new=True)
            else:
                term.count(extraction.source, fact, new=False)
    kept: list[DistillCandidate] = []
    pending: list[DistillCandidate] = []
    for key in sorted(terms):
        term = terms[key]
        candidate = term.candidate
        if (resolver.find(candidate.term) is not None
                or forgotten.is_forgotten_name(candidate.term)
                or forgotten.mentions_forgotten(candidate.term)):
            continue
        candidate.rawAssetIds = sorted(term.assets)
        candidate.evidence = [term.evidence[where] for where in sorted(term.evidence)]
        # A code term seen once is kept aside, not dropped: its count goes on in the next run,
        # so the inbox is the same however the sources were batched across runs.
        rare = candidate.kind == "code_term" and candidate.occurrences < 2
        (pending if rare else kept).append(candidate)
    return CandidateInbox(candidatesGeneratedAtUtc=inbox.candidatesGeneratedAtUtc,
                          candidates=kept, pendingCandidates=pending)
