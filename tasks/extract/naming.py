"""Names a source writes, as NameRefs, and the entities and relations they add to the subject."""

from __future__ import annotations

from tasks.extract.model import DEFAULT_LINKED_TYPE, EntityFact, Extraction, NameRef, RelationFact
from tasks.extract.text import clean_name, is_meaningful_name, plain_text


def named(name: str, entity_type: str, line: int) -> NameRef | None:
    """A written name as a NameRef, None when it is not a meaningful name."""
    clean = clean_name(plain_text(name))
    if not is_meaningful_name(clean):
        return None
    return NameRef((clean,), entity_type, line)


def link(
    result: Extraction, subject: NameRef, relation_type: str, target_name: str, line: int
) -> None:
    """The subject `relation_type` the named entity (a rejected name is recorded as such)."""
    target = named(target_name, DEFAULT_LINKED_TYPE, line)
    if target is None:
        result.rejected_names.append(target_name.strip())
        return
    if target.display.lower() == subject.display.lower():
        return
    result.entities.append(EntityFact(target))
    result.relations.append(RelationFact(subject, relation_type, target))
