"""Which earlier sources can mention a name, without reading every one (issue 30 item 1).

A run that registers a new name reads every source distilled before it for a mention
(plan.read_earlier_sources): 20,000 files at 100,000 pages, about half a second of a one-note
ingest. MentionMatcher finds a name in a text only where the name's words (`\\w+` of the
lowercased name) occur as words of the lowercased text, in order; so a source none of whose
word sets holds every word of some name cannot be found, and need not be read. The sources
that hold them are read and matched exactly as before: the result is the same.

The words of a source are a function of its bytes, and a raw source never changes: its asset id
is the sha256 of the bytes the ingest stored, read-only (raw/ is immutable). This index keeps,
per word, the sources (by asset id) whose text holds it; a source is added the first time it is
read here (the first run reads them all, as before). Bookkeeping under `.membank/`: an index
that cannot be opened or read is removed and every source is read again; removing it only
costs one full read. `membank forget` removes it (a purged source's words must not stay).
"""

from __future__ import annotations

import sqlite3
import sys
from array import array
from bisect import bisect_left
from collections.abc import Iterable
from contextlib import suppress
from pathlib import Path

from tasks.extract.mentions import word_tokens
from tasks.store.layout import MENTION_WORDS_FILE

WORDS_FILE = MENTION_WORDS_FILE
# the asset rows of a word: native unsigned ints, so the format names the byte order
_FORMAT = f"mention-words 1 {sys.byteorder} {array('I').itemsize}"
_BATCH = 500  # words per SELECT (SQLite allows 32,766 parameters)
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS source (row INTEGER PRIMARY KEY, asset_id TEXT UNIQUE NOT NULL)",
    "CREATE TABLE IF NOT EXISTS word (word TEXT PRIMARY KEY, rows BLOB NOT NULL)",
)


def text_words(text: str) -> set[str]:
    """The words MentionMatcher.find reads in `text` (as a set)."""
    return set(word_tokens(text))


def name_words(names: Iterable[str]) -> list[tuple[str, ...]]:
    """Each name's distinct words (a name without any is left out: the matcher drops it)."""
    found = {tuple(sorted(set(word_tokens(name)))) for name in names}
    return sorted(words for words in found if words)


class MentionWords:
    """The index of one memory root, open for a run (use as a context manager)."""

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self.conn = conn
        self.known: set[str] = {asset_id for (asset_id,) in conn.execute("SELECT asset_id FROM source")}
        self._pending: dict[str, set[str]] = {}  # asset id -> its words, added at close

    @classmethod
    def open(cls, root: Path) -> MentionWords | None:
        """The root's index (created when missing), or None when it cannot be used: a damaged
        file is removed (the next run starts it again) and this run reads every source."""
        path = root / WORDS_FILE
        if not path.parent.is_dir():
            return None
        try:
            return cls._opened(path)
        except sqlite3.Error:
            with suppress(OSError):
                path.unlink()
            return None

    @classmethod
    def _opened(cls, path: Path) -> MentionWords:
        conn = sqlite3.connect(path, isolation_level=None)
        try:
            for statement in _SCHEMA:
                conn.execute(statement)
            stored = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
            if stored is None or stored[0] != _FORMAT:
                conn.execute("BEGIN")
                for table in ("source", "word", "meta"):
                    conn.execute(f"DELETE FROM {table}")
                conn.execute("INSERT INTO meta VALUES ('format', ?)", (_FORMAT,))
                conn.execute("COMMIT")
            return cls(path, conn)
        except BaseException:
            conn.close()
            raise

    def __enter__(self) -> MentionWords:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def knows(self, asset_id: str) -> bool:
        return asset_id in self.known

    def add(self, asset_id: str, text: str) -> None:
        """Keep `text`'s words as the words of `asset_id` (written at close)."""
        if asset_id not in self.known:
            self._pending[asset_id] = text_words(text)

    def holding(self, names: list[tuple[str, ...]]) -> set[str]:
        """Asset ids of the indexed sources that hold every word of at least one of `names`
        (name_words). A word's rows are ascending (rows are numbered as sources are added and
        appended so): the rarest word's rows are tested against the others' by bisection,
        without a set of every row of a common word."""
        by_word: dict[str, array[int]] = {}
        for word in sorted({word for words in names for word in words}):
            held = self.conn.execute("SELECT rows FROM word WHERE word = ?", (word,)).fetchone()
            by_word[word] = _unpacked(held[0]) if held else array("I")
        rows: set[int] = set()
        for words in names:
            rarest, *others = sorted((by_word[word] for word in words), key=len)
            rows.update(row for row in rarest if all(_holds(other, row) for other in others))
        found: set[str] = set()
        wanted = sorted(rows)
        for at in range(0, len(wanted), _BATCH):
            chunk = wanted[at:at + _BATCH]
            marks = ",".join("?" * len(chunk))
            found.update(str(asset_id) for (asset_id,) in self.conn.execute(
                f"SELECT asset_id FROM source WHERE row IN ({marks})", chunk))
        return found

    def close(self) -> None:
        """Write the sources added (one transaction), then close; an error leaves the index
        as it was (removed when damaged: MentionWords.open)."""
        try:
            if self._pending:
                self._write(self._pending)
        except sqlite3.Error:
            pass  # bookkeeping: the sources are read again next time
        finally:
            self._pending = {}
            self.conn.close()

    def _write(self, pending: dict[str, set[str]]) -> None:
        conn = self.conn
        conn.execute("BEGIN")
        try:
            first = conn.execute("SELECT COALESCE(MAX(row), 0) + 1 FROM source").fetchone()[0]
            ids = sorted(pending)
            conn.executemany("INSERT INTO source VALUES (?, ?)", enumerate(ids, start=first))
            added: dict[str, array[int]] = {}
            for row, asset_id in enumerate(ids, start=first):
                for word in pending[asset_id]:
                    added.setdefault(word, array("I")).append(row)
            words = sorted(added)
            for at in range(0, len(words), _BATCH):
                chunk = words[at:at + _BATCH]
                marks = ",".join("?" * len(chunk))
                for word, blob in conn.execute(
                        f"SELECT word, rows FROM word WHERE word IN ({marks})", chunk):
                    added[word] = _unpacked(blob) + added[word]
            conn.executemany("INSERT OR REPLACE INTO word VALUES (?, ?)",
                             ((word, added[word].tobytes()) for word in words))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise


def _holds(rows: array[int], row: int) -> bool:
    at = bisect_left(rows, row)
    return at < len(rows) and rows[at] == row


def _unpacked(blob: bytes) -> array[int]:
    rows = array("I")
    rows.frombytes(blob)
    return rows
