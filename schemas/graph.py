"""Knowledge graph (context/knowledge-graph.index.jsonc) and entity registry
(context/entity-registry.jsonc), with the exact field names of spec/memory-bank.md.

Extensions (provenance, superseded facts) are extra keys beside the spec's keys, so a reader
that knows only the spec still reads the file: it sees `observations` as plain strings.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from schemas.common import MeaningfulName, UtcTimestamp, name_key


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


class GraphRelation(BaseModel):
    model_config = ConfigDict(extra="allow")

    sourceEntityName: MeaningfulName
    targetEntityName: MeaningfulName
    relationType: str = Field(min_length=1, pattern=r"^[a-z][a-z0-9_]*$")


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


class EntityRegistry(BaseModel):
    model_config = ConfigDict(extra="allow")

    registryGeneratedAtUtc: UtcTimestamp
    entries: list[RegistryEntry]


def entity_key(name: str) -> str:
    return name_key(name)


def relation_key(relation: GraphRelation) -> str:
    """source|relationType|target, all trimmed and lowercased."""
    return "|".join(
        name_key(part)
        for part in (relation.sourceEntityName, relation.relationType, relation.targetEntityName)
    )


def observation_key(entity_name: str, observation: str) -> str:
    """entityName|observationText (trimmed): the spec's observation dedup key."""
    return f"{entity_name.strip()}|{observation.strip()}"
