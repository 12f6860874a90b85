"""What a decision decides about: the technologies, systems and services a record names as the
subject of its decision ("We will use Luxon", "migrating from MongoDB to AWS DocumentDB",
"Chosen option: "Lunr.js"", a title "Use RDS instead of MySQL"), and the systems it merges or
replaces ("Combine api-redis into backend-redis", "merge the API PostgreSQL instance into the
main PostgreSQL instance"). Pure, precision first: only a name (capitalized words, an acronym, a
code span, a hyphenated identifier or a name with a system noun such as "cluster") right after
the verb counts; "use a mechanism", "use one of the following" and "instead of provisioning our
own ..." do not. Typed: a managed cloud service of a short known list is a `service`, a named
cluster / instance / hyphenated identifier a `system`, anything else a `technology`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

TECHNOLOGY = "technology"
SERVICE = "service"
SYSTEM = "system"
USES = "uses"
REPLACES = "replaces"
REJECTS = "rejects"

# One word of a name: Capitalized (Luxon, DocumentDB, Lunr.js, Prettier-ESLint) or an acronym.
_WORD = r"(?:[A-Z][A-Za-z0-9]*(?:[.+-][A-Za-z0-9]+)*)"
# A name ends where the capitalized words end: never a cut "Markdown Architectural Decision".
_NAME = (
    rf"(?:`(?P<{{g}}c>[A-Za-z@][\w./@-]{{{{1,40}}}})`"
    rf"|(?P<{{g}}n>{_WORD}(?:\s+{_WORD}){{{{0,3}}}})"
    r"(?![\w+-]|[./]\w|\s+(?!Replacement\b)[A-Z]))"  # never "Pub" of "Pub/Sub"
)
_DET = r"(?:(?:the|a|an)\s+(?:native\s+|standard\s+|managed\s+)?)?"


def _name(group: str) -> str:
    return _NAME.format(g=group)


# A system: "api-mongo cluster", "backend-redis", "API PostgreSQL instance", "main PostgreSQL
# instance", "mongo cluster" (a plain lower-case word only with a system noun after it).
_HEAD = r"(?:cluster|instance|database|service|proxy|server|queue|bucket)s?"
_MOD = r"(?:(?:main|primary|shared|central|existing|application|backend|frontend|internal)\s+)"
_NOT_SYSTEM_WORDS = (
    r"(?!(?:one|two|three|four|all|both|each|every|the|a|an|this|that|these|those|new|old|other"
    r"|same|single|multiple|several|many|separate|our|their|its)\b)"
)


def _system(group: str) -> str:
    return (
        rf"(?P<{group}s>{_MOD}?(?:`[A-Za-z][\w./@-]{{1,40}}`"
        rf"|[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?:\s+{_HEAD})?"
        rf"|{_WORD}(?:\s+{_WORD}){{0,2}}\s+{_HEAD}"
        rf"|{_NOT_SYSTEM_WORDS}[a-z][a-z0-9]+\s+{_HEAD}))(?![\w-]|[.]\w)"
    )


_PATTERNS: tuple[tuple[re.Pattern[str], tuple[tuple[str, str], ...]], ...] = (
    # "migrating from MongoDB to AWS DocumentDB", "move from X to Y", "switch from X to Y"
    (
        re.compile(
            r"\b(?:migrat\w*|mov\w*|switch\w*)\s+from\s+" + _DET + _name("old")
            + r"\s+to\s+" + _DET + _name("new")
        ),
        (("old", REPLACES), ("new", USES)),
    ),
    # "Combine api-redis into backend-redis", "merge the API PostgreSQL instance into the main
    # PostgreSQL instance", "consolidate X into Y": X is retired, Y kept.
    (
        re.compile(
            r"\b(?:[Cc]ombin\w*|[Mm]erg\w*|[Cc]onsolidat\w*)\s+(?:the\s+)?" + _system("old")
            + r"\s+into\s+(?:the\s+)?" + _system("new")
        ),
        (("old", REPLACES), ("new", USES)),
    ),
    # "replace the configuration with an Application Load Balancer": only the new one is named.
    (
        re.compile(
            r"\b[Rr]eplac(?:e|es|ing)\s+(?:the\s+|our\s+|its\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}"
            r"\s+with\s+" + _DET + _name("new")
        ),
        (("new", USES),),
    ),
    # "X Replacement by Y", "replace X with Y", "X replaced by Y"
    (
        re.compile(r"(?:^|\s)" + _name("old") + r"\s+(?:[Rr]eplacement|replaced)\s+(?:by|with)\s+"
                   + _DET + _name("new")),
        (("old", REPLACES), ("new", USES)),
    ),
    (
        re.compile(r"\b[Rr]eplace\s+" + _DET + _name("old") + r"\s+with\s+" + _DET + _name("new")),
        (("old", REPLACES), ("new", USES)),
    ),
    # "We will use X", "we are using X", "we have decided to use X", "Use X for ...",
    # "we decided to introduce X", "we will go with X", "switch to X",
    # "should use X", "mocked by using X", "we use X"
    (
        re.compile(
            r"(?:^|[.;:]\s+|\b(?i:we|should|shall|will|must|to|by|decided\s+that\s+we)\s+"
            r"(?:(?i:will|shall|are|have\s+decided\s+to|decided\s+to|are\s+going\s+to)\s+)?)"
            r"(?:[Uu]se|[Uu]sing|[Aa]dopt|[Aa]dopting|[Ii]ntroduce|[Ii]ntroducing|[Cc]hoose|[Gg]o\s+with"
            r"|[Ss]witch\s+to)\s+" + _DET + _name("new")
            + r"(?:\s+instead\s+of\s+(?:[a-z]+ed\s+)?" + _DET + _name("old") + r")?"
        ),
        (("new", USES), ("old", REJECTS)),
    ),
    # "We will create an EFS resource": a name with a system noun after it.
    (
        re.compile(
            r"\b(?i:we|will|shall|should)\s+(?:(?i:will|shall)\s+)?(?:create|provision|deploy|run)"
            r"\s+(?:a|an|the)\s+" + _name("new")
            + r"(?=\s+(?:resource|instance|cluster|service|server|queue|bucket|database)s?\b)"
        ),
        (("new", USES),),
    ),
    # "X is the preferred library"
    (
        re.compile(r"(?:^|[.;:]\s+)" + _name("new") + r"\s+is\s+the\s+preferred\b"),
        (("new", USES),),
    ),
    # Chosen option: "Lunr.js" (MADR), an "Option 2:" label dropped
    (
        re.compile(r"\bChosen option:\s*\"(?:Option\s+\d+:\s*)?" + _name("new") + r"\""),
        (("new", USES),),
    ),
)
# Words that start a capitalized phrase but name no technology.
_NOT_NAMES = frozenset(
    """we i it this that these those they our all any each every one some option options
    the a an in on for to of and or if when while as at by from with new old current""".split()
)


@dataclass(frozen=True, slots=True)
class DecisionSubject:
    name: str
    relation_type: str  # uses | replaces | rejects
    entity_type: str = TECHNOLOGY  # technology | service | system


# Managed cloud services (what a record "uses" instead of running it): typed `service`.
_SERVICES = frozenset(
    name.strip()
    for name in """rds, elasticache, documentdb, acm, elb, alb, nlb, ec2, s3, efs, ebs, route53,
    route 53, sqs, sns, lambda, dynamodb, cloudfront, cloudwatch, kinesis, aurora, fargate, ecs,
    eks, ecr, iam, kms, application load balancer, elastic load balancer, network load balancer,
    cloud sql, bigquery, cloud run, cloud storage, gke, pub/sub, cosmos db, azure functions""".split(",")
)


def decision_subjects(text: str) -> list[DecisionSubject]:
    """The named subjects of one decision text (or title), in order of appearance, once each."""
    found: list[tuple[int, DecisionSubject]] = []
    for pattern, roles in _PATTERNS:
        for match in pattern.finditer(text):
            if _offered_as_choice(text, match.start()):
                continue
            for group, relation_type in roles:
                written = next(
                    (f"{group}{kind}" for kind in "cns" if _group(match, f"{group}{kind}")), None
                )
                name = _clean(match.group(written)) if written else None
                if name and written:
                    entity_type = _entity_type(name, system=written.endswith("s"))
                    found.append(
                        (match.start(written), DecisionSubject(name, relation_type, entity_type))
                    )
    seen: set[str] = set()
    subjects: list[DecisionSubject] = []
    for _, subject in sorted(found, key=lambda item: item[0]):
        if subject.name.lower() not in seen:
            seen.add(subject.name.lower())
            subjects.append(subject)
    return subjects


def _offered_as_choice(text: str, start: int) -> bool:
    """"Move it to either the cache instances, or replace it with an ALB": a choice left open
    in the same sentence is no subject of the decision."""
    sentence = max(text.rfind(". ", 0, start), text.rfind("; ", 0, start), 0)
    return re.search(r"\beither\b", text[sentence:start], re.I) is not None


def _group(match: re.Match[str], name: str) -> str | None:
    """A named group's text, None when the pattern has no such group or it did not match."""
    return match.groupdict().get(name)


def _entity_type(name: str, *, system: bool) -> str:
    key = " ".join(re.sub(r"^(?:aws|amazon)\s+", "", name.lower()).split())
    if key in _SERVICES or key.rstrip("s") in _SERVICES:
        return SERVICE
    return SYSTEM if system else TECHNOLOGY


def _clean(name: str | None) -> str | None:
    if not name:
        return None
    name = name.strip().rstrip(".,;:").strip("`")
    if name.split()[0].lower() in _NOT_NAMES or len(name) < 2:
        return None
    if re.fullmatch(r"ADR[\s-]*\d*", name, re.I):
        return None
    return name
