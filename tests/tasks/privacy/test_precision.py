"""Precision and recall of the secrets gate (issue 26 item 3).

Two fixture sets in tests/fixtures/privacy/: `secrets.txt`, real-format secrets of the common
services (random values, generated keys; none is live), every one of which the gate must refuse;
`public.txt`, snippets of public documents (ETags, commit SHAs, UUIDs, checksums, image digests,
examples marked as examples, placeholder key blocks, public keys, integrity hashes, base64 data),
none of which it may refuse. The whole shared corpus (every folder) is public documentation too.
A refusal is what ingest does: a `secret_detected` problem from the gate, path and text scanned.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tasks.privacy.gate import check_text
from tasks.store.settings import MembankSettings, load_settings
from tests.conftest import CORPUS, REPO_ROOT

FIXTURES = REPO_ROOT / "tests" / "fixtures" / "privacy"
_HEADER = re.compile(r"^=== (\S+) (\S+) ===$")


def fixture_entries(path: Path) -> list[tuple[str, str]]:
    """(file name, document) of each `=== <id> <ext> ===` entry of a fixture file."""
    entries: list[tuple[str, list[str]]] = []
    for line in path.read_text(encoding="utf-8").split("\n"):
        header = _HEADER.match(line)
        if header:
            entries.append((f"{header.group(1)}.{header.group(2)}", []))
        elif entries:
            entries[-1][1].append(line)
    return [(name, "\n".join(lines)) for name, lines in entries]


def refused(settings: MembankSettings, path: str, text: str) -> bool:
    return bool(check_text(path, path, text, settings, frozenset()).blocked)


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory) -> MembankSettings:
    return load_settings(tmp_path_factory.mktemp("root") / ".memories")


def corpus_documents() -> list[tuple[str, str]]:
    assert CORPUS.is_dir(), f"shared corpus missing at {CORPUS}"
    files = sorted(p for p in CORPUS.rglob("*") if p.is_file() and not p.name.startswith("."))
    return [(str(p), p.read_text(encoding="utf-8", errors="replace")) for p in files]


def test_precision_and_recall(settings: MembankSettings, capsys: pytest.CaptureFixture[str]) -> None:
    secrets = fixture_entries(FIXTURES / "secrets.txt")
    public = fixture_entries(FIXTURES / "public.txt")
    corpus = corpus_documents()
    folders = {Path(path).relative_to(CORPUS).parts[0] for path, _text in corpus}
    assert len(secrets) >= 40 and len(public) >= 100 and len(folders) >= 10
    missed = [name for name, text in secrets if not refused(settings, f"in/{name}", text)]
    false_alarms = [name for name, text in public if refused(settings, f"in/{name}", text)]
    false_alarms += [path for path, text in corpus if refused(settings, path, text)]
    caught = len(secrets) - len(missed)
    precision = caught / (caught + len(false_alarms)) if caught + len(false_alarms) else 0.0
    recall = caught / len(secrets)
    with capsys.disabled():
        print(f"\nsecrets gate: recall {recall:.1%} ({caught}/{len(secrets)} refused), precision "
              f"{precision:.1%} ({len(false_alarms)} refusals of {len(public)} public snippets and "
              f"{len(corpus)} corpus files)")
    assert missed == [] and recall == 1.0
    assert false_alarms == [] and precision == 1.0


@pytest.mark.parametrize("name", ["etag-python-dict", "timeline-sha-0", "placeholder-key-dots",
                                  "aws-doc-example-key", "sri-0", "data-uri-png"])
def test_each_kind_of_public_snippet_is_present(name: str) -> None:
    """The public set holds the cases issue 26 names (the three false alarms it reports too)."""
    assert name in {n.split(".")[0] for n, _t in fixture_entries(FIXTURES / "public.txt")}


def test_the_same_value_is_a_secret_only_beside_a_secret_like_key(settings: MembankSettings) -> None:
    digest = "e1ca502697e5c9317743dc078f67693f"
    assert not refused(settings, "a.md", f"'etag': '\"{digest}\"',\n")
    assert not refused(settings, "a.md", f"Fixed in \"{digest}\" last night.\n")
    assert refused(settings, "a.md", f"'api_key': '{digest}',\n")
    assert refused(settings, "a.md", f"client_secret: {digest}\n")
    assert refused(settings, "a.md", f"Authorization: Bearer {digest}\n")


def test_a_placeholder_key_block_passes_and_a_real_one_does_not(settings: MembankSettings) -> None:
    placeholder = "```\n-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n```\n"
    assert not refused(settings, "a.md", placeholder)
    real = dict(fixture_entries(FIXTURES / "secrets.txt"))["ed25519-pkcs8.md"]
    assert refused(settings, "a.md", real)
    assert refused(settings, "a.md", real.replace("-----END PRIVATE KEY-----", ""))  # no END line
