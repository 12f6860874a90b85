"""The privacy gate of ingest and proposals: findings become problems, per the settings.

A secret in a source's or proposal's text, or in its file name, blocks it unless allowlisted
(inline pragma, or the root's `.secrets.baseline`) or the person passed --allow-secrets;
personal data warn by default (MEMBANK_PRIVACY_PII_ACTION=block blocks them too). Each
problem is one finding: file, line (or "file name"), kind and masked preview; never the value.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

import orjson

from schemas.privacy import BASELINE_FILE, SecretsBaseline
from schemas.report import Problem
from tasks.privacy.detect import (
    NAME_LINE,
    DetectOptions,
    PrivacyFinding,
    redact_name,
    redact_text,
    scan_name,
    scan_text,
)
from tasks.store.contracts import validate_model
from tasks.store.errors import ContractError
from tasks.store.graph_store import load_tombstones
from tasks.store.layout import MemoryLayout
from tasks.store.settings import MembankSettings

SECRET_DETECTED = "secret_detected"
SECRET_ALLOWED = "secret_allowed"
PII_DETECTED = "pii_detected"
PROPOSAL_SECRET_HINT = ("take the secret out (refer to where it is kept instead) and resubmit; "
                        "the copy kept in proposals/rejected/ has it redacted")
_ALLOW_HINT = ("remove it from the source; or, if it is not sensitive, mark its line "
               "`pragma: allowlist secret` or add it to the root's .secrets.baseline")


@dataclass(frozen=True)
class Verdict:
    """What the gate decided for one text: blocking problems, warnings, accepted findings."""

    blocked: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    accepted_secrets: list[PrivacyFinding] = field(default_factory=list)  # stored by --allow-secrets


def load_baseline(root: Path) -> frozenset[tuple[str, str]]:
    """Accepted (type, hashed_secret) pairs of `<root>/.secrets.baseline` (none if absent)."""
    path = root / BASELINE_FILE
    try:
        data = orjson.loads(path.read_bytes())
    except FileNotFoundError:
        return frozenset()
    except orjson.JSONDecodeError as exc:
        raise ContractError(f"allowlist baseline is not JSON: {exc}", file=path,
                            hint="regenerate it with `detect-secrets scan > .secrets.baseline`") from exc
    return validate_model(SecretsBaseline, data, file=path).accepted()


def forgotten_asset_ids(layout: MemoryLayout, purged: set[str]) -> frozenset[str]:
    """Raw asset ids that `membank forget` removed or purged (`purged`: the manifest's purged
    assets' ids): ingest never stores them again."""
    tombstones = load_tombstones(layout.tombstones_file).tombstones
    guarded = {i for t in tombstones for i in t.assetIds or ()}
    return frozenset(purged | guarded)


def detect_options(settings: MembankSettings) -> DetectOptions:
    return DetectOptions(pii=settings.privacy_pii_action != "off",
                         phone_region=settings.privacy_phone_region)


def findings_for(path: str, text: str, settings: MembankSettings,
                 accepted: frozenset[tuple[str, str]]) -> list[PrivacyFinding]:
    """Findings of `text` not accepted by the baseline."""
    return [f for f in scan_text(path, text, detect_options(settings))
            if (f.kind, f.fingerprint) not in accepted]


def name_findings(name: str, accepted: frozenset[tuple[str, str]]) -> list[PrivacyFinding]:
    """Secrets in a file's name or path (stored in the manifest, the source page, the catalogs
    and the rejected proposal's name): line 0, so a problem says "file name"."""
    return [replace(f, path=name, line=NAME_LINE) for f in scan_name(name)
            if (f.kind, f.fingerprint) not in accepted]


def judge(display: str, findings: list[PrivacyFinding], settings: MembankSettings,
          *, what: str = "source") -> Verdict:
    verdict = Verdict()
    for item in findings:
        where = (f"{'file name' if item.line == NAME_LINE else f'line {item.line}'}: "
                 f"{item.kind} {item.preview}")
        if item.category == "secret" and settings.privacy_allow_secrets:
            verdict.accepted_secrets.append(item)
            verdict.warnings.append(Problem(
                file=display, code=SECRET_ALLOWED,
                message=f"{where}; stored anyway (--allow-secrets), recorded in the raw manifest",
                hint="run `membank forget --source` to remove it later"))
        elif item.category == "secret":
            verdict.blocked.append(Problem(file=display, code=SECRET_DETECTED,
                                           message=f"{where}; {what} not stored", hint=_ALLOW_HINT))
        elif settings.privacy_pii_action == "block":
            verdict.blocked.append(Problem(file=display, code=PII_DETECTED,
                                           message=f"{where}; {what} not stored (personal data)",
                                           hint=_ALLOW_HINT))
        else:
            verdict.warnings.append(Problem(file=display, code=PII_DETECTED,
                                            message=f"{where}; personal data stored",
                                            hint="set MEMBANK_PRIVACY_PII_ACTION=block to refuse it"))
    return verdict


def check_text(display: str, name: str, text: str, settings: MembankSettings,
               accepted: frozenset[tuple[str, str]]) -> Verdict:
    """Scan a source's path `name` (its extension picks detect-secrets' file type) and its
    `text`, and judge them: a secret in the path blocks the source like one in its text."""
    in_name = name_findings(name, accepted)
    shown = redact_name(display) if in_name else display  # a report keeps no secret either
    return judge(shown, in_name + findings_for(os.path.basename(name), text, settings, accepted),
                 settings)


def accepted_record(findings: list[PrivacyFinding]) -> list[dict[str, object]]:
    """What the raw manifest keeps of secrets stored with --allow-secrets (no values)."""
    return [{"kind": f.kind, "line": f.line, "preview": f.preview}
            for f in findings]


@dataclass(frozen=True)
class ProposalPrivacy:
    """The privacy check of one proposal: a rejection (masked reason, redacted copy) or warnings."""

    rejected: bool
    message: str = ""
    redacted: bytes = b""
    redacted_name: str = ""  # the name the rejected copy is kept under (no secret in it)
    warnings: list[Problem] = field(default_factory=list)


def check_proposal(name: str, raw: bytes, settings: MembankSettings,
                   accepted: frozenset[tuple[str, str]]) -> ProposalPrivacy:
    """Secrets reject a proposal (`secret_detected`); the copy kept in proposals/rejected/ has
    every line a secret spans (a private key: its whole block) replaced by `[REDACTED <kind>]`,
    so the rejection keeps no part of a secret."""
    text = raw.decode("utf-8", errors="replace")
    in_name = name_findings(name, accepted)
    display = redact_name(name) if in_name else name
    verdict = judge(display, in_name + findings_for(name, text, settings, accepted),
                    settings.model_copy(update={"privacy_allow_secrets": False}), what="proposal")
    if not verdict.blocked:
        return ProposalPrivacy(False, warnings=verdict.warnings)
    shown = "; ".join(p.message.removesuffix("; proposal not stored")
                      .removesuffix(" (personal data)") for p in verdict.blocked)
    redacted = redact_text(name, text, detect_options(settings)).encode("utf-8")
    return ProposalPrivacy(True, f"{len(verdict.blocked)} finding(s): {shown}", redacted,
                           display, verdict.warnings)
