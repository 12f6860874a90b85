"""The privacy audit over a memory root: what it finds, where it reports it, and that it never
shows the value."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tasks.health.summary import prometheus_text
from tasks.ingest import collect_inputs, prepare_batch, write_ingest
from tasks.privacy.audit import audit_paths, privacy_audit
from tasks.store.operation import begin_operation, writing_operation
from tasks.store.settings import load_settings
from tests.conftest import REPO_ROOT
from tests.tasks.privacy.planted import EC_KEY, RSA_KEY

AWS = "AKIAQ3EGRPLX5N7TZW4K"
PASSWORD = "hunter2horse"
EMAIL = "jane.doe@acme-corp.io"


def _root_with_findings(tmp_path: Path) -> Path:
    root = tmp_path / ".memories"
    folder = tmp_path / "in"
    folder.mkdir()
    body = "\n\n".join(f"## Part {n}\n\n" + "Plain words about the rollout. " * 40 for n in range(120))
    (folder / "large-runbook.md").write_text(f"# Runbook\n\n{body}\n\nsecret = '{PASSWORD}'\n")
    (folder / "clean-note.md").write_text("# Clean\n\nNothing here.\n")
    settings = load_settings(root, fixed_clock="2026-03-24T22:40:05Z", privacy_allow_secrets=True)
    inputs, problems = collect_inputs([folder])
    write_ingest(settings, prepare_batch(inputs, settings), problems)
    (root / "wiki/concepts/2026-03-24T22-40-05Z__deploy-keys.md").write_text(
        f"---\ntitle: Deploy keys\n---\n\n# Deploy keys\n\nkey {AWS}\n")
    rejected = root / "proposals/rejected"
    rejected.mkdir(parents=True)
    (rejected / "contact.md").write_text(f"# Contact\n\nWrite to {EMAIL}.\n")
    (root / "raw/assets").mkdir(parents=True, exist_ok=True)
    (root / "raw/assets/logo.bin").write_bytes(b"\x00\x01binary")
    return root


def test_audit_finds_stored_secrets_and_pii_everywhere(tmp_path: Path) -> None:
    root = _root_with_findings(tmp_path)
    report, summary = privacy_audit(begin_operation(load_settings(root), "audit"))
    found = {(f.code, f.path) for f in summary.findings if f.path}
    paths = {path for _code, path in found}
    assert any(p.startswith("raw/") for p in paths)  # the stored source
    assert any(p.startswith("wiki/sources/shards/") for p in paths)  # a shard of the large source
    assert ("secret_detected", "wiki/concepts/2026-03-24T22-40-05Z__deploy-keys.md") in found
    assert ("pii_detected", "proposals/rejected/contact.md") in found
    assert not any(p.startswith("context/health") for p in audit_paths(root))
    assert summary.kind == "privacy" and summary.status == "failing" and summary.exit_code() == 1
    assert summary.counts.secrets_found == 3 and summary.counts.pii_found == 1
    assert report.figures["files_skipped"] == 1
    prom = prometheus_text(summary)
    assert 'membank_secrets_found{flow="privacy"} 3.0' in prom
    dumped = summary.model_dump_json() + report.model_dump_json() + prom
    assert AWS not in dumped and PASSWORD not in dumped and EMAIL not in dumped


def test_audit_privacy_command_runs_without_prefect(tmp_path: Path) -> None:
    root = _root_with_findings(tmp_path)
    code = ("import sys; from flows.cli.app import app\n"
            "try:\n    app([ 'audit', 'privacy', '--root', sys.argv[1]])\n"
            "except SystemExit as exc:\n"
            "    print('prefect' in sys.modules, exc.code)\n")
    done = subprocess.run([sys.executable, "-c", code, str(root)], capture_output=True, text=True,
                          cwd=REPO_ROOT, timeout=120)
    assert done.stdout.strip().splitlines()[-1] == "False 1", done.stdout + done.stderr
    assert AWS not in done.stdout + done.stderr
    health = (root / "context/health/latest-privacy.json").read_text()
    assert "secret_detected" in health and AWS not in health
    assert (root / "context/health/membank-privacy.prom").exists()


def test_update_baseline_accepts_findings_until_one_is_marked_a_secret(tmp_path: Path) -> None:
    root = _root_with_findings(tmp_path)
    with writing_operation(load_settings(root), "audit") as operation:
        report, summary = privacy_audit(operation, accept_all=True)
    assert report.figures["baseline_added"] == 4 and summary.status == "healthy"
    baseline = json.loads((root / ".secrets.baseline").read_text())
    assert AWS not in json.dumps(baseline) and PASSWORD not in json.dumps(baseline)
    concept = "wiki/concepts/2026-03-24T22-40-05Z__deploy-keys.md"
    baseline["results"][concept][0]["is_secret"] = True  # a person audited it: a real secret
    (root / ".secrets.baseline").write_text(json.dumps(baseline))
    _report, summary = privacy_audit(begin_operation(load_settings(root), "audit"))
    assert [(f.code, f.path) for f in summary.findings] == [("secret_detected", concept)]


def test_audit_flags_a_key_body_left_in_proposals(tmp_path: Path) -> None:
    """D20: a private key whose BEGIN line alone was redacted (what older rejected copies keep)
    is still a key: the audit flags it in proposals/rejected/ and anywhere else in proposals/."""
    root = tmp_path / ".memories"
    for folder, key in (("rejected", RSA_KEY), ("applied", EC_KEY)):
        (root / "proposals" / folder).mkdir(parents=True)
        body = "\n".join(key.splitlines()[1:])
        (root / "proposals" / folder / "prop-pkey.md").write_text(
            f"# Signing key\n\n```\n[REDACTED Private Key]\n{body}\n```\n")
    _report, summary = privacy_audit(begin_operation(load_settings(root), "audit"))
    assert sorted((f.code, f.path, f.message.split(":")[0]) for f in summary.findings) == [
        ("secret_detected", "proposals/applied/prop-pkey.md", "line 5"),
        ("secret_detected", "proposals/rejected/prop-pkey.md", "line 5")]
    assert not any(line in summary.model_dump_json() for line in RSA_KEY.splitlines()[1:-1])


def test_audit_flags_a_bare_key_body_in_proposals_only(tmp_path: Path) -> None:
    """A key whose BEGIN and END lines were both taken out is still a key in proposals/; a
    certificate's body (under its BEGIN line) is not, and pages are judged by scan_text alone."""
    root = tmp_path / ".memories"
    body = "\n".join(RSA_KEY.splitlines()[1:-1])
    certificate = "-----BEGIN CERTIFICATE-----\n" + body + "\n-----END CERTIFICATE-----"
    for folder in ("proposals/rejected", "wiki/concepts"):
        (root / folder).mkdir(parents=True)
        (root / folder / "key.md").write_text(f"# Key\n\n```\n[REDACTED Private Key]\n{body}\n"
                                              "[REDACTED Private Key]\n```\n")
        (root / folder / "cert.md").write_text(f"# CA\n\n```\n{certificate}\n```\n")
    (root / "proposals/applied").mkdir(parents=True)
    (root / "proposals/applied/whole.md").write_text(f"# Key\n\n{RSA_KEY}\n")  # one finding
    _report, summary = privacy_audit(begin_operation(load_settings(root), "audit"))
    assert sorted((f.path, f.message.split(":")[0]) for f in summary.findings) == [
        ("proposals/applied/whole.md", "line 3"), ("proposals/rejected/key.md", "line 5")]
