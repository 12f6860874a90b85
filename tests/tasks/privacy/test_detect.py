"""Detection: every kind found in every format, false positives pass, values never shown."""

from __future__ import annotations

import json

import pytest

from tasks.privacy.detect import DetectOptions, redact_text, scan_text
from tests.conftest import CORPUS
from tests.tasks.privacy.planted import EC_KEY, FALSE_POSITIVES, PII, RSA_KEY, SECRETS, key_body_words

ALL = SECRETS + PII


def _kinds(path: str, text: str) -> set[str]:
    return {f.kind for f in scan_text(path, text)}


@pytest.mark.parametrize(("kind", "line", "value"), ALL, ids=[k for k, _l, _v in ALL])
def test_each_kind_is_found_in_markdown_and_never_shown(kind: str, line: str, value: str) -> None:
    text = f"# Deploy notes\n\nSome prose first.\n\n{line}\n\nMore prose.\n"
    found = [f for f in scan_text("notes.md", text) if f.kind == kind]
    assert found, f"{kind} not found"
    assert found[0].line == 5 and found[0].path == "notes.md"
    assert found[0].category == ("pii" if (kind, line, value) in PII else "secret")
    for item in found:
        assert value not in item.one_line() and value not in repr(item)
        assert "*" in item.preview


@pytest.mark.parametrize(("kind", "line", "value"), ALL, ids=[k for k, _l, _v in ALL])
def test_each_kind_is_found_in_json_html_and_frontmatter(kind: str, line: str, value: str) -> None:
    as_json = json.dumps({"title": "Deploy", "notes": [line]}, indent=2)
    if "High Entropy" in kind:  # the quotes of the line are escaped in JSON; the value is a string
        as_json = json.dumps({"title": "Deploy", "session": value}, indent=2)
    as_html = f"<html><body><h1>Deploy</h1>\n<p>{line}</p>\n</body></html>\n"
    frontmatter = f"---\ntitle: Deploy\nnote: '{line}'\n---\n\n# Deploy\n"
    if kind == "Private Key":  # a PEM block is not a YAML scalar: a block scalar then
        frontmatter = f"---\ntitle: Deploy\nkey: |\n  {line}\n---\n\n# Deploy\n"
    assert kind in _kinds("notes.json", as_json), "json"
    assert kind in _kinds("notes.html", as_html), "html"
    assert kind in _kinds("notes.md", frontmatter), "frontmatter"


@pytest.mark.parametrize("line", FALSE_POSITIVES)
def test_false_positives_pass(line: str) -> None:
    assert scan_text("notes.md", f"# Notes\n\n{line}\n") == []
    assert scan_text("record.json", json.dumps({"line": line})) == []


def test_a_random_token_after_an_ordinary_word_key_is_still_a_secret() -> None:
    # `Secretary:` passes a name; a credential pasted there is found as under any keyword
    found = scan_text("notes.md", "# Minutes\n\nSecretary: q7Hx2LmP9vRt4KwZ8nYb3\n")
    assert [(f.line, f.kind) for f in found] == [(3, "Secret Keyword")]


def test_a_passphrase_of_bare_words_after_a_keyword_is_still_a_secret() -> None:
    # a sentence after `password:` passes (FALSE_POSITIVES); words with no function word do not
    found = scan_text("notes.md", "# Access\n\npassword: correct horse battery staple\n")
    assert [(f.line, f.kind) for f in found] == [(3, "Secret Keyword")]


def test_allowlist_pragma_on_the_line_before() -> None:
    text = "<!-- pragma: allowlist nextline secret -->\npassword = hunter2horse\npassword = other9horse\n"
    assert [f.line for f in scan_text("notes.md", text)] == [3]


def test_membank_digests_in_its_own_files_pass() -> None:
    digest = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
    graph = json.dumps({"observationProvenance": [{"rawAssetId": digest, "lineStart": 1}],
                        "contentHash": f"sha256:{digest}", "id": "123e4567-e89b-12d3-a456-426614174000"})
    assert scan_text("context/knowledge-graph.index.jsonc", graph) == []


def test_phone_region_reads_national_numbers() -> None:
    line = "call (415) 555-2671 today\n"
    assert scan_text("n.md", line) == []
    assert [f.kind for f in scan_text("n.md", line, DetectOptions(phone_region="US"))] == ["Phone Number"]


def test_redaction_removes_every_value() -> None:
    text = "\n".join(line for _k, line, _v in ALL)
    redacted = redact_text("notes.md", text)
    for kind, _line, value in ALL:
        assert value not in redacted, kind
    assert "[REDACTED AWS Access Key]" in redacted and redacted.count("\n") == text.count("\n")
    assert scan_text("notes.md", redacted) == []


def test_real_documents_give_few_findings() -> None:
    """The shared corpus (package docs, ADRs) holds no real secret: findings stay rare."""
    assert CORPUS.is_dir(), f"shared corpus missing at {CORPUS}"
    files = [p for p in CORPUS.rglob("*") if p.is_file() and p.suffix in {".md", ".txt"}]
    found = [f for p in files for f in scan_text(p.name, p.read_text(errors="replace"))]
    assert len(files) > 50 and len(found) <= len(files) // 5


def _key_layouts(key: str) -> dict[str, str]:
    """One key block as documents carry it: fenced, indented under a YAML key, escaped in JSON,
    quoted in a blockquote, an OpenPGP-style armor with a blank line after the header."""
    indented = "\n".join(f"  {line}" for line in key.splitlines())
    armored = key.replace("-----\n", "-----\nVersion: 1\n\n", 1)
    return {
        "fenced": f"# Deploy\n\nThe key:\n\n```\n{key}\n```\n\nRotate it yearly.\n",
        "yaml": f"---\ntitle: Deploy\ntls_key: |\n{indented}\nport: 443\n---\n\n# Deploy\n",
        "json": json.dumps({"type": "service_account", "private_key": key + "\n"}, indent=2),
        "quote": "# Deploy\n\n" + "\n".join(f"> {line}" for line in key.splitlines()) + "\n",
        "armor": f"# Deploy\n\n{armored}\n\nRotate it yearly.\n",
    }


@pytest.mark.parametrize("key", [RSA_KEY, EC_KEY], ids=["rsa", "ec"])
@pytest.mark.parametrize("layout", ["fenced", "yaml", "json", "quote", "armor"])
def test_a_private_key_block_is_redacted_whole(key: str, layout: str) -> None:
    """D20: the BEGIN line, every body line and the END line go; the rest stays."""
    text = _key_layouts(key)[layout]
    redacted = redact_text("notes.md", text)
    assert "PRIVATE KEY-----" not in redacted
    for body_line in key_body_words(key):
        assert body_line not in redacted, body_line
    assert "[REDACTED Private Key]" in redacted and redacted.count("\n") == text.count("\n")
    assert scan_text("notes.md", redacted) == []
    if layout in {"fenced", "armor"}:
        assert redacted.endswith("Rotate it yearly.\n")


def test_a_key_body_without_its_begin_line_is_found() -> None:
    """What the old redaction left in proposals/rejected/: the BEGIN line replaced, the body and
    the END line kept. The body is still a key."""
    lines = RSA_KEY.splitlines()
    text = "# Deploy\n\n[REDACTED Private Key]\n" + "\n".join(lines[1:]) + "\n\nDone.\n"
    found = scan_text("rejected.md", text)
    assert [(f.kind, f.line) for f in found] == [("Private Key", 4)]
    for body_line in key_body_words(RSA_KEY):
        assert body_line not in found[0].one_line()
    redacted = redact_text("rejected.md", text)
    assert not any(line in redacted for line in key_body_words(RSA_KEY))
    assert scan_text("notes.md", "-----END RSA PRIVATE KEY-----\n") == []  # no body: nothing


def test_phonenumbers_is_imported_at_the_first_candidate_only() -> None:
    # (ingest32) a one-note ingest whose text holds no phone candidate does not pay the import
    import subprocess
    import sys

    probe = ("import sys\nfrom tasks.privacy.detect import scan_text\n"
             "scan_text('n.md', 'a note, revision 3, nothing personal\\n')\n"
             "assert 'phonenumbers' not in sys.modules\n"
             "found = scan_text('n.md', 'call +44 20 7946 0958 today\\n')\n"
             "assert 'phonenumbers' in sys.modules and found, found\n")
    subprocess.run([sys.executable, "-c", probe], check=True)


def test_plugin_names_are_the_configured_plugins_in_order() -> None:
    # (ingest34) lines are selected by these names before detect-secrets is configured
    from tasks.privacy import detect
    from tasks.privacy.triggers import known

    assert detect.PLUGIN_NAMES == tuple(type(p).__name__ for p in detect._plugins())
    assert all(known(name) for name in detect.PLUGIN_NAMES)  # none reads every line


def test_a_text_without_a_selected_line_finds_what_the_full_scan_finds(monkeypatch) -> None:
    # (ingest34) skipping the plugins where no secret trigger selects a line changes no finding
    from tasks.privacy import detect

    texts = [f"# Notes\n\n{line}\n" for _kind, line, _value in ALL]
    texts += [f"# Notes\n\n{line}\n" for line in FALSE_POSITIVES]
    texts += [path.read_text(encoding="utf-8") for path in sorted(CORPUS.rglob("*.md"))[:150]]
    texts += ["plain prose, nothing secret\n", "-----END RSA PRIVATE KEY-----\n", "\ud800 lone\n",
              f"MIIE{'a1B2c3D4' * 8}\n-----END RSA PRIVATE KEY-----\n"]
    quick = [scan_text("n.md", text) for text in texts]
    monkeypatch.setattr(detect, "_may_hold_secrets", lambda _lines, _selection: True)
    assert [scan_text("n.md", text) for text in texts] == quick
    assert sum(1 for found in quick if found) > len(ALL)  # the texts do hold findings


def test_detect_secrets_is_imported_at_the_first_selected_line_only() -> None:
    # (ingest34) a one-note ingest whose text no secret trigger selects does not pay the import
    import subprocess
    import sys

    probe = ("import sys\nfrom tasks.privacy.detect import redact_text, scan_text\n"
             "assert not scan_text('n.md', 'a note, revision 3, nothing personal\\n')\n"
             "assert redact_text('n.md', 'a note\\n') == 'a note\\n'\n"
             "assert 'detect_secrets' not in sys.modules\n"
             "found = scan_text('n.md', 'password = \"hunter2-xq9-Zv7!\"\\n')\n"
             "assert 'detect_secrets' in sys.modules and found, found\n")
    subprocess.run([sys.executable, "-c", probe], check=True)


def test_detect_secrets_is_imported_under_one_lock_on_every_path() -> None:
    # Two ingest threads that imported detect-secrets' cyclic modules at once (one for an
    # e-mail line's allowlist pragma, one for the plugins) got a partially initialised module:
    # an ImportError that failed whole sources (2 runs in 8 of two files). Each path that
    # imports it goes through the lock first: the first scan of a personal-data line too.
    import subprocess
    import sys

    probe = ("import sys, threading\nfrom tasks.privacy import detect\n"
             "found = detect.scan_text('n.md', 'write to tom.christie@encode.io\\n')\n"
             "assert found and 'detect_secrets.filters.allowlist' in sys.modules, found\n"
             "assert detect._imported_detect_secrets.cache_info().currsize == 1\n"
             "errors = []\nbarrier = threading.Barrier(6)\n"
             "def scan(text):\n"
             "    barrier.wait()\n"
             "    try:\n        detect.scan_text('n.md', text)\n"
             "    except Exception as exc:\n        errors.append(exc)\n"
             "texts = ['mail a.b@encode.io\\n', 'password = \"hunter2-xq9-Zv7!\"\\n'] * 3\n"
             "threads = [threading.Thread(target=scan, args=(t,)) for t in texts]\n"
             "[t.start() for t in threads]\n[t.join() for t in threads]\n"
             "assert not errors, errors\n")
    subprocess.run([sys.executable, "-c", probe], check=True)
