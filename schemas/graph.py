"""Knowledge graph (context/knowledge-graph.index.jsonc) and entity registry
(context/entity-registry.jsonc), with the exact field names of spec/memory-bank.md.

Extensions (provenance, superseded facts) are extra keys beside the spec's keys, so a reader
that knows only the spec still reads the file: it sees `observations` as plain strings.
"""

from __future__ import annotations

from typing import Annotated, Any, NotRequired

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, with_config
from typing_extensions import TypedDict

from schemas.common import MeaningfulName, UtcTimestamp, name_key

RELATION_TYPE_PATTERN = r"^[a-z][a-z0-9_]*$"
# Extensions kept as extra keys, so a spec-only reader still reads the file:
# on a relation, the sources that state it: [{"sourcePage": ..., "rawAssetId": ...}];
RELATION_ORIGINS_KEY = "relationProvenance"
# at the top level, relations no current source states any more, with when, by what and why
# (the relation's own keys plus supersededAtUtc, supersededBy, reason, sourcePage, rawAssetId).
SUPERSEDED_RELATIONS_KEY = "supersededRelations"
# on an entity, its active observations no source confirmed within the freshness window, marked
# by reconcile (never deleted): [{observation, markedStaleAtUtc, lastConfirmedAtUtc, reason}].
STALE_OBSERVATIONS_KEY = "staleObservations"


class ObservationProvenance(BaseModel):
    """Where one observation was read: source page, raw asset and line range."""

    model_config = ConfigDict(extra="allow")

    observation: str
    sourcePage: str
    rawAssetId: str
    lineStart: int = Field(ge=1)
    lineEnd: int = Field(ge=1)


class SupersededObservation(BaseModel):
    """An observation that is no longer active; kept, with a link to what replaced it."""

    model_config = ConfigDict(extra="allow")

    observation: str
    supersededAtUtc: UtcTimestamp
    supersededBy: str | None = Field(
        None, description="The replacing observation, source page or record."
    )
    reason: str


class GraphEntity(BaseModel):
    model_config = ConfigDict(extra="allow")

    entityName: MeaningfulName
    entityType: str = Field(min_length=1)
    observations: list[str] = Field(default_factory=list)
    observationProvenance: list[ObservationProvenance] = Field(default_factory=list)
    supersededObservations: list[SupersededObservation] = Field(default_factory=list)


class RelationOrigin(BaseModel):
    """One source that states a relation."""

    model_config = ConfigDict(extra="allow")

    sourcePage: str
    rawAssetId: str


class GraphRelation(BaseModel):
    model_config = ConfigDict(extra="allow")

    sourceEntityName: MeaningfulName
    targetEntityName: MeaningfulName
    relationType: str = Field(min_length=1, pattern=RELATION_TYPE_PATTERN)
    # The extension keyed RELATION_ORIGINS_KEY: absent, not null, on a relation no source
    # stated (one a user or proposal added), so the file keeps the spec's three keys there.
    relationProvenance: list[RelationOrigin] | None = Field(None, exclude_if=lambda v: v is None)


class KnowledgeGraph(BaseModel):
    model_config = ConfigDict(extra="allow")

    graphGeneratedAtUtc: UtcTimestamp
    entities: list[GraphEntity]
    relations: list[GraphRelation]


class RegistryEntry(BaseModel):
    model_config = ConfigDict(extra="allow")

    canonicalName: MeaningfulName
    aliases: list[str] = Field(default_factory=list)
    entityType: str = Field(min_length=1)
    # Set by distill, written only when set (the registry is saved with exclude_none), in the
    # order a decision record gets them: its file stem, its log's folder, then its page.
    recordKey: str | None = None
    recordLog: str | None = None
    entityPage: str | None = None


class EntityRegistry(BaseModel):
    model_config = ConfigDict(extra="allow")

    registryGeneratedAtUtc: UtcTimestamp
    entries: list[RegistryEntry]


# The entity dedup key is the spec's name key itself: one function, not a call of another
# (it is called about 500,000 times in one ingest at 100,000 pages).
entity_key = name_key


def relation_key(relation: GraphRelation) -> str:
    """source|relationType|target, all trimmed and lowercased."""
    return "|".join(
        name_key(part)
        for part in (relation.sourceEntityName, relation.relationType, relation.targetEntityName)
    )


def observation_key(entity_name: str, observation: str) -> str:
    """entityName|observationText (trimmed): the spec's observation dedup key."""
    return f"{entity_name.strip()}|{observation.strip()}"


# Plain-dict mirrors of the models above, for the hot path (distill's merge of 100,000+
# observations): pydantic-core validates them with the same constraints but builds dicts, not
# model instances (about 3x faster). Keep them field for field in step with the models;
# tests/tasks/store/test_graph_fast_path.py checks that both accept and reject the same data.

_EXTRA = ConfigDict(extra="allow")


@with_config(_EXTRA)
class ObservationProvenanceData(TypedDict):
    observation: str
    sourcePage: str
    rawAssetId: str
    lineStart: Annotated[int, Field(ge=1)]
    lineEnd: Annotated[int, Field(ge=1)]


@with_config(_EXTRA)
class SupersededObservationData(TypedDict):
    observation: str
    supersededAtUtc: UtcTimestamp
    supersededBy: NotRequired[str | None]
    reason: str


@with_config(_EXTRA)
class GraphEntityData(TypedDict):
    entityName: MeaningfulName
    entityType: Annotated[str, Field(min_length=1)]
    observations: NotRequired[list[str]]
    observationProvenance: NotRequired[list[ObservationProvenanceData]]
    supersededObservations: NotRequired[list[SupersededObservationData]]


@with_config(_EXTRA)
class RelationOriginData(TypedDict):
    sourcePage: str
    rawAssetId: str


@with_config(_EXTRA)
class GraphRelationData(TypedDict):
    sourceEntityName: MeaningfulName
    targetEntityName: MeaningfulName
    relationType: Annotated[str, Field(min_length=1, pattern=RELATION_TYPE_PATTERN)]
    relationProvenance: NotRequired[list[RelationOriginData]]


@with_config(_EXTRA)
class KnowledgeGraphData(TypedDict):
    graphGeneratedAtUtc: UtcTimestamp
    entities: list[GraphEntityData]
    relations: list[GraphRelationData]


KNOWLEDGE_GRAPH_DATA = TypeAdapter(KnowledgeGraphData)
GRAPH_ENTITY_DATA = TypeAdapter(GraphEntityData)  # one entity of a graph read as a stream


def relation_data_key(relation: dict[str, Any]) -> str:
    """relation_key of a plain-dict relation (name_key of each part, written out: 50,000
    relations are keyed at every distill)."""
    return (f"{relation['sourceEntityName'].strip().lower()}|"
            f"{relation['relationType'].strip().lower()}|"
            f"{relation['targetEntityName'].strip().lower()}")
