"""Kill -9 trials of the real `membank` CLI: the reliability report's table, rerun.

    nice .venv/bin/python benchmarks/bench_trials.py            # reduced counts, ~10 minutes
    nice .venv/bin/python benchmarks/bench_trials.py --full     # the report's corpus and counts
    .venv/bin/python benchmarks/bench_trials.py --counts ingest=4,forget=6 --files 80

Method (../shared/reviews/reliability-trials-2026-12-01-pm.md, "Method"): each trial copies a
base root, runs the command (`.venv/bin/membank`, a subprocess, MEMBANK_FIXED_CLOCK fixed) and
kills it with SIGKILL, either after a random delay or at its Nth rename (strace
`inject=rename:signal=KILL:when=N`, when strace is installed). Then, as a user would: a search
(what a reader sees before anyone reruns: no hit may name a missing page), the same command
again, `reconcile --check`; and the root is compared with a clean run of the same command from
the same base:

- sha256 of every file outside .membank/ and context/health/, log.md included (as the report
  did: a rerun that drops warnings shows there);
- temp files anywhere, .membank/ included (atomic-writer `.<name>.<8 chars>.tmp`,
  `.search.sqlite3.*`, `*.prom.*`, a left SQLite `-journal`), and journal leftovers;
- duplicate raw bytes and source pages sharing a `raw_asset_id`;
- the search index: rows whose file is gone, rows whose mtime/size disagree with the file,
  pages the clean run's index holds and this one does not, and the hits of four queries
  (path, anchor and snippet) against the clean run's;
- health (status and problem count of `reconcile --check`) against the clean run's.

Verdicts, as the report defines them: data lost (a file that the base and the clean run both
have is gone), not healed (temp files or a journal left, a duplicate, health worse, or the
rerun failed where the clean run did not), healed-different (health equal, nothing left, but
some file, the index or the hits differ), healed-identical (all equal). A command that
finished before the kill is counted apart ("finished"), as in the report.

Also: disk full (the root on a small tmpfs, as root only: ingest until ENOSPC, rerun on the
full disk, enlarge, rerun, compare) and the D16 check (an `--allow-secrets` ingest killed at
each rename; the plain rerun must refuse the secret, or the secret is stored with its
`secretsAllowed` record because the killed batch had committed).

Writes the table to stdout and to benchmarks/bench_trials_results.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MEMBANK = REPO / ".venv" / "bin" / "membank"
CORPUS = REPO.parent / "shared" / "corpus"
SAMPLES = REPO / "raw-samples"
RESULTS = Path(__file__).resolve().parent / "bench_trials_results.md"
CLOCK = "2026-03-24T22:40:05Z"
IGNORED = (".membank", "context/health")
QUERIES = ("hosting platforms", "incident postmortem", "decision record", "agent zq")
TEMP_RE = re.compile(r"(^\..+\.[a-z0-9_]{8}\.tmp$)|(^\.search\.sqlite3\..+)|(\.prom\..+)|(-journal$)|(-wal$)")
SECRET = "AKIAQ3EGRPLX5N7TZW4K"
SECRET_NOTE = (f"# Deploy notes\n\nThe deploy user for the staging bucket.\n\naws key {SECRET}\n"
               "aws_secret_access_key = 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\n")
REDUCED = {"ingest": 8, "distill": 4, "propose": 4, "reconcile": 3, "forget": 12, "rebuild": 2}
FULL = {"ingest": 40, "distill": 18, "propose": 16, "reconcile": 12, "forget": 20, "rebuild": 4}
REDUCED_FILES, FULL_FILES = 60, 200
REDUCED_PROPOSALS, FULL_PROPOSALS = 40, 200
ENOSPC_FRACTIONS = (0.3, 0.6, 0.85, 0.95, 1.0, 1.3)


# ---------------------------------------------------------------------------------------------
# running the CLI


def env() -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "MEMBANK_"))}
    out["MEMBANK_FIXED_CLOCK"] = CLOCK
    out["PREFECT_HOME"] = str(WORK / "prefect-home")
    out["PREFECT_SERVER_ANALYTICS_ENABLED"] = "false"
    out["DO_NOT_TRACK"] = "1"
    return out


WORK = Path(tempfile.mkdtemp(prefix="bench-trials-"))


@dataclass
class Ran:
    code: int
    out: str
    err: str
    seconds: float


def membank(args: list[str], root: Path, *, timeout: float = 900) -> Ran:
    start = time.monotonic()
    done = subprocess.run([str(MEMBANK), *args, "--root", str(root)], capture_output=True, text=True,
                          env=env(), timeout=timeout, check=False, cwd=WORK)
    return Ran(done.returncode, done.stdout, done.stderr, time.monotonic() - start)


def killed_after(args: list[str], root: Path, delay: float) -> tuple[bool, float]:
    """Run and SIGKILL after `delay` seconds; (was it killed, seconds)."""
    start = time.monotonic()
    proc = subprocess.Popen([str(MEMBANK), *args, "--root", str(root)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env(), cwd=WORK, start_new_session=True)
    try:
        proc.wait(timeout=delay)
        return False, time.monotonic() - start
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return True, time.monotonic() - start


RENAMES = "rename,renameat,renameat2"


def killed_at_rename(args: list[str], root: Path, nth: int) -> tuple[bool, float]:
    """Run under strace, SIGKILL at the Nth rename(2) (strace counts per thread)."""
    start = time.monotonic()
    cmd = ["strace", "-f", "-qq", "-o", "/dev/null", "-e", f"trace={RENAMES}", "-e",
           f"inject={RENAMES}:signal=KILL:when={nth}", str(MEMBANK), *args, "--root", str(root)]
    done = subprocess.run(cmd, capture_output=True, env=env(), cwd=WORK, check=False, timeout=900)
    return done.returncode in (-9, 137), time.monotonic() - start


def count_renames(args: list[str], root: Path) -> int:
    """The most renames one thread makes in a clean run (strace's `when=N` counts per thread)."""
    log = WORK / "strace-count.txt"
    cmd = ["strace", "-f", "-qq", "-o", str(log), "-e", f"trace={RENAMES}", str(MEMBANK), *args,
           "--root", str(root)]
    subprocess.run(cmd, capture_output=True, env=env(), cwd=WORK, check=False, timeout=900)
    per_thread: dict[str, int] = {}
    for line in log.read_text().splitlines():
        if "rename" in line and "resumed>" not in line:
            pid = line.split(maxsplit=1)[0]
            per_thread[pid] = per_thread.get(pid, 0) + 1
    return max(per_thread.values(), default=0)


# ---------------------------------------------------------------------------------------------
# snapshots and comparison


def files_of(root: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if any(rel == s or rel.startswith(s + "/") for s in IGNORED):
            continue
        if path.is_file() and not path.is_symlink():
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def temp_files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if TEMP_RE.search(p.name))


def journal_left(root: Path) -> list[str]:
    state = root / ".membank"
    return sorted(n for n in os.listdir(state) if n.startswith("journal")) if state.is_dir() else []


def duplicates(root: Path) -> list[str]:
    seen: dict[str, str] = {}
    dups = []
    raw = root / "raw"
    for path in sorted(raw.rglob("*")) if raw.is_dir() else []:
        if path.is_file() and "manifest" not in path.name:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            if digest in seen:
                dups.append(f"raw {path.relative_to(root)} = {seen[digest]}")
            seen.setdefault(digest, str(path.relative_to(root)))
    assets: dict[str, str] = {}
    sources = root / "wiki" / "sources"
    for page in sorted(sources.glob("*.md")) if sources.is_dir() else []:
        found = re.search(r"^raw_asset_id:\s*['\"]?([0-9a-f]{16,})", page.read_text(errors="replace"), re.M)
        if found:
            if found[1] in assets:
                dups.append(f"page {page.name} = {assets[found[1]]}")
            assets.setdefault(found[1], page.name)
    return dups


def index_rows(root: Path) -> dict[str, tuple[int, int]] | None:
    db = root / ".membank" / "search.sqlite3"
    if not db.is_file():
        return None
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            return {p: (m, s) for p, m, s in conn.execute("SELECT path, mtime_ns, size FROM docs")}
    except sqlite3.Error:
        return None


def index_problems(root: Path, clean_rows: dict[str, tuple[int, int]] | None) -> list[str]:
    rows = index_rows(root)
    if rows is None:
        return ["index missing or unreadable"] if clean_rows is not None else []
    problems = []
    for rel, (mtime, size) in sorted(rows.items()):
        path = root / rel
        if not path.is_file():
            problems.append(f"row of a missing file {rel}")
        elif path.stat().st_size != size or path.stat().st_mtime_ns != mtime:
            problems.append(f"stale row {rel}")
    missing = sorted(set(clean_rows or {}) - set(rows))
    if missing:
        problems.append(f"{len(missing)} pages not indexed (e.g. {missing[0]})")
    return problems


def search_hits(root: Path) -> list[list[str]]:
    hits = []
    for query in QUERIES:
        ran = membank(["search", query, "--json", "--limit", "10"], root)
        try:
            data = json.loads(ran.out)
        except json.JSONDecodeError:
            hits.append([f"exit {ran.code}: {ran.err.strip()[:120]}"])
            continue
        items = data.get("hits", data) if isinstance(data, dict) else data
        hits.append([f"{h.get('path')}#{h.get('anchor', '')} "
                     f"{hashlib.sha256(str(h.get('snippet', '')).encode()).hexdigest()[:12]}"
                     if isinstance(h, dict) else str(h) for h in items])
    return hits


def hit_on_missing_page(root: Path) -> list[str]:
    """A reader before the rerun: the paths its hits name must exist."""
    bad = []
    for query in QUERIES[:2]:
        ran = membank(["search", query, "--json", "--limit", "20"], root)
        try:
            data = json.loads(ran.out)
        except json.JSONDecodeError:
            if ran.code not in (0, 1):
                bad.append(f"search exit {ran.code}: {ran.err.strip()[:120]}")
            continue
        items = data.get("hits", data) if isinstance(data, dict) else data
        bad += [f"hit on missing {h['path']}" for h in items
                if isinstance(h, dict) and h.get("path") and not (root / h["path"]).exists()]
    return bad


def health(root: Path) -> tuple[str, int, list[str]]:
    """`reconcile --check`: (health and exit code, finding count, finding codes and files), from
    the summary it writes (context/health/latest-reconcile.json) and its report's problems."""
    ran = membank(["reconcile", "--check", "--json"], root)
    try:
        report = json.loads(ran.out)
        summary = json.loads((root / "context" / "health" / "latest-reconcile.json").read_text())
    except (json.JSONDecodeError, OSError):
        return f"error/{ran.code}", 999, [ran.err.strip()[:200]]
    found = [f"{p.get('code')} {p.get('file') or ''}".strip() for p in report.get("problems", [])]
    found += [f"{f.get('code')} {f.get('file') or f.get('path') or ''}".strip()
              for f in summary.get("findings", []) if isinstance(f, dict)]
    found += [f"warning {w}" for w in report.get("memory_health", {}).get("consistency_warnings", [])]
    return f"{summary.get('status', '?')}/{ran.code}", len(found), sorted(set(found))


def rank(status: str) -> int:
    """Exit code of `reconcile --check`: 0 healthy, 1 degraded or failing, 2 error."""
    return int(status.rsplit("/", 1)[-1]) if status.rsplit("/", 1)[-1].isdigit() else 9


@dataclass
class Snapshot:
    files: dict[str, str]
    health: tuple[str, int, list[str]]
    rows: dict[str, tuple[int, int]] | None
    hits: list[list[str]]
    code: int = 0


def snapshot(root: Path, code: int = 0) -> Snapshot:
    hits = search_hits(root)  # first: a reader brings the index up to date (or builds it)
    return Snapshot(files_of(root), health(root), index_rows(root), hits, code)


@dataclass
class Trial:
    kind: str
    how: str
    verdict: str = ""
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0


def judge(trial: Trial, root: Path, base: dict[str, str], clean: Snapshot, rerun: Ran) -> None:
    hits = search_hits(root)
    files = files_of(root)
    lost = sorted(rel for rel in base if rel in clean.files and rel not in files)
    temps, journal, dups = temp_files(root), journal_left(root), duplicates(root)
    status, count, codes = health(root)
    worse = (rank(status), count) > (rank(clean.health[0]), clean.health[1]) or bool(set(codes) - set(clean.health[2]))
    index = index_problems(root, clean.rows)
    differ = sorted(set(files) ^ set(clean.files) | {r for r in files if clean.files.get(r, files[r]) != files[r]})
    failed = (rerun.code >= 2 > clean.code) or "Traceback" in rerun.err or "internal error" in rerun.err
    trial.notes += [f"lost {len(lost)}: {lost[:3]}"] if lost else []
    trial.notes += [f"temp {temps[:3]}"] if temps else []
    trial.notes += [f"journal {journal}"] if journal else []
    trial.notes += [f"dup {dups[:3]}"] if dups else []
    trial.notes += [f"health {status}/{count} vs {clean.health[0]}/{clean.health[1]}: "
                    f"{sorted(set(codes) - set(clean.health[2]))[:4]}"] if worse else []
    trial.notes += [f"rerun exit {rerun.code} vs clean {clean.code}: {rerun.err.strip()[-200:]}"] \
        if rerun.code != clean.code else []
    trial.notes += [f"index {index[:3]}"] if index else []
    trial.notes += [f"differs {len(differ)}: {differ[:4]}"] if differ else []
    trial.notes += ["hits differ"] if hits != clean.hits else []
    if lost:
        trial.verdict = "data lost"
    elif temps or journal or dups or worse or failed:
        trial.verdict = "not healed"
    elif differ or index or hits != clean.hits:
        trial.verdict = "healed-different"
    else:
        trial.verdict = "healed-identical"


# ---------------------------------------------------------------------------------------------
# inputs and base roots


def build_corpus(files: int) -> Path:
    """The report's corpus200: the shared corpus + raw-samples + notes cut from large/ at `## `
    headings + 10 stand-up notes (with an e-mail address each: pii warnings), cut to `files`."""
    out = WORK / "corpus"
    picked: list[tuple[str, bytes]] = []
    for path in sorted(SAMPLES.rglob("*")):
        if path.is_file():
            picked.append((f"raw-samples/{path.relative_to(SAMPLES)}", path.read_bytes()))
    for i in range(10):
        picked.append((f"standups/2026-03-{10 + i:02d}-standup.md", (
            f"# Stand-up 2026-03-{10 + i:02d}\n\n- Upload Service: retry budget raised to {i + 3}.\n"
            f"- Contact dana.{i}@example-corp.io for the rollout.\n").encode()))
    shared = sorted(p for p in CORPUS.rglob("*") if p.is_file() and "large" not in p.parts)
    picked += [(f"corpus/{p.relative_to(CORPUS)}", p.read_bytes()) for p in shared]
    for big in sorted((CORPUS / "large").glob("*.md")):
        parts = re.split(r"(?m)^(?=## )", big.read_text(errors="replace"))
        picked += [(f"large-cut/{big.stem}-{n:03d}.md", part.encode()) for n, part in enumerate(parts[1:], 1)
                   if len(part) > 400]
    fixed, rest = picked[:21], picked[21:]
    keep = fixed + sorted(random.Random(7).sample(rest, min(len(rest), max(0, files - len(fixed)))))
    for rel, data in keep[:files]:
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return out


def build_inbox(count: int) -> Path:
    out = WORK / "inbox"
    out.mkdir(exist_ok=True)
    topics = ["retry budget", "cache eviction", "deploy freeze", "agent zq", "queue depth"]
    rng = random.Random(11)
    for i in range(count):
        topic = topics[i % len(topics)]
        title = f"Agent zq findings on {topic}" if i % 10 == 0 else f"Agent zq note {i:03d} on {topic}"
        meta = (f"title: {title}\n" + ("" if i % 20 == 7 else f"description: What leg {i} learned about {topic}.\n")
                + "type: synthesis\nmemory:\n  memoryRole: knowledge\n  source: dream leg " + str(i)
                + "\nplacement:\n  kind: new_leaf\n  hub: wiki/synthesis\n")
        body = (f"# {title}\n\nFinding {i}: the {topic} of run {rng.randint(1, 999)} held.\n\n"
                f"## Evidence\n\n- measured {rng.randint(10, 90)} times.\n")
        (out / f"prop-{i:03d}.md").write_text(f"---\n{meta}---\n{body}")
    return out


def plant_faults(root: Path) -> None:
    """base-rec: 3 entity pages gone, 2 index.md and 1 hub entry removed, a duplicated and
    reversed graph, one raw file 0644, a truncated search index."""
    entities = sorted((root / "wiki" / "entities").glob("2*.md"))
    for page in entities[:3]:
        page.unlink()
    index = root / "index.md"
    lines = index.read_text().splitlines(keepends=True)
    links = [i for i, line in enumerate(lines) if line.startswith("- [")]
    for i in sorted(links[-2:], reverse=True):
        del lines[i]
    index.write_text("".join(lines))
    hub = root / "wiki" / "sources" / "index.md"
    hub_lines = hub.read_text().splitlines(keepends=True)
    first = next(i for i, line in enumerate(hub_lines) if line.startswith("- ["))
    del hub_lines[first]
    hub.write_text("".join(hub_lines))
    graph = root / "context" / "knowledge-graph.index.jsonc"
    data = json.loads(graph.read_text())
    data["entities"] = list(reversed(data["entities"])) + data["entities"][:1]
    graph.write_text(json.dumps(data, indent=2))
    raw = sorted(p for p in (root / "raw").rglob("*") if p.is_file() and "manifest" not in p.name)[0]
    raw.chmod(0o644)
    db = root / ".membank" / "search.sqlite3"
    if db.is_file():
        with db.open("r+b") as handle:
            handle.truncate(db.stat().st_size // 2)


def build_bases(corpus: Path, proposals: int) -> dict[str, Path]:
    bases = WORK / "bases"
    bases.mkdir()
    empty = bases / "empty"
    membank(["init"], empty)
    membank(["search", "--rebuild"], empty)
    nd = copy(empty, bases / "nd")
    membank(["ingest", "--no-distill", str(corpus)], nd)
    full = copy(nd, bases / "full")
    membank(["distill", "--all"], full)
    prop = copy(full, bases / "prop")
    shutil.copytree(build_inbox(proposals), prop / "proposals" / "inbox", dirs_exist_ok=True)
    rec = copy(full, bases / "rec")
    plant_faults(rec)
    return {"empty": empty, "nd": nd, "full": full, "prop": prop, "rec": rec}


def copy(src: Path, dst: Path) -> Path:
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst, symlinks=True)
    return dst


# ---------------------------------------------------------------------------------------------
# the trials


@dataclass
class Kind:
    name: str
    label: str
    base: str
    args: list[str]


def kinds(corpus: Path, topics: tuple[str, str]) -> list[Kind]:
    purge, soft = topics
    return [
        Kind("ingest", "`ingest` of the corpus", "empty", ["ingest", str(corpus)]),
        Kind("distill", "`distill --all`", "nd", ["distill", "--all"]),
        Kind("propose", "`propose` of an inbox of {proposals} generated proposals", "prop", ["propose"]),
        Kind("reconcile", "`reconcile` (repair of planted faults + truncated index)", "rec", ["reconcile"]),
        Kind("forget", f"`forget --apply` (purge {purge!r}, soft/hard {soft!r})", "full",
             ["forget", purge, "--mode", "purge", "--apply"]),
        Kind("rebuild", "`search --rebuild`", "full", ["search", "--rebuild"]),
    ]


FORGET_MODES = (("purge", 0), ("soft", 1), ("hard", 1))


def forget_args(topics: tuple[str, str], n: int, base: Path) -> list[str]:
    """`forget --apply` of the plan a dry run on `base` shows (its hash confirmed; broad
    matches allowed, as a person who reviewed the plan would)."""
    mode, which = FORGET_MODES[n % len(FORGET_MODES)]
    plan = ["forget", topics[which], "--mode", mode]
    shown = membank([*plan, "--json"], base)
    digest = json.loads(shown.out)["figures"]["plan"]
    return [*plan, "--apply", "--confirm-plan", digest, "--allow-broad-match"]


@dataclass
class Clean:
    snap: Snapshot
    seconds: float
    renames: int
    tried: set[int] = field(default_factory=set)  # rename kill points used (each once)


def clean_run(kind_args: list[str], base: Path, cache: dict[str, Clean]) -> Clean:
    key = " ".join(kind_args)
    if key not in cache:
        root = copy(base, WORK / "clean")
        ran = membank(kind_args, root)
        renames = count_renames(kind_args, copy(base, WORK / "count")) if shutil.which("strace") else 0
        cache[key] = Clean(snapshot(root, ran.code), ran.seconds, renames)
        before, after = files_of(base), cache[key].snap.files
        changed = len(set(before) ^ set(after)) + sum(1 for r in after if before.get(r, after[r]) != after[r])
        print(f"  clean {key[:60]}: exit {ran.code}, {ran.seconds:.1f} s, {changed} files changed, "
              f"{renames} renames (most in one thread), "
              f"health {cache[key].snap.health[0]}/{cache[key].snap.health[1]}", flush=True)
    return cache[key]


def one_trial(kind: Kind, args: list[str], base: Path, clean: Clean, rng: random.Random, n: int
              ) -> list[Trial]:
    """One kill trial; a command that finished before its kill is counted apart and drawn again
    (twice at most), so the kill counts are what was asked."""
    finished: list[Trial] = []
    shown = " ".join(a for a in args if not a.startswith("/") and a != "--apply")
    for attempt in range(3):
        root = copy(base, WORK / "t")
        if clean.renames > 0 and (n + attempt) % 2 == 1:
            unused = sorted(set(range(1, clean.renames + 1)) - clean.tried) or [rng.randint(1, clean.renames)]
            nth = rng.choice(unused)
            clean.tried.add(nth)
            how = f"rename #{nth}/{clean.renames} (per thread)"
            killed, seconds = killed_at_rename(args, root, nth)
        else:
            # from about the end of start-up (a third of a short command) to near its end
            delay = rng.uniform(max(0.3, clean.seconds * 0.35), max(0.5, clean.seconds * (0.9 - 0.2 * attempt)))
            how = f"after {delay:.1f} s"
            killed, seconds = killed_after(args, root, delay)
        trial = Trial(kind.name, f"{shown} {how}", seconds=seconds)
        if killed:
            return [*finished, killed_trial(trial, kind, args, root, base, clean, n)]
        trial.verdict = "finished"
        finished.append(trial)
    return finished


def control(kind: Kind, args: list[str], base: Path, clean: Clean) -> Trial:
    """The report's control: no kill, the rerun, judged like a trial (must be identical)."""
    root = copy(base, WORK / "t")
    first = membank(args, root)
    trial = Trial("control", f"{kind.name} not killed, rerun", seconds=first.seconds)
    judge(trial, root, files_of(base), clean.snap, membank(args, root))
    return trial


def killed_trial(trial: Trial, kind: Kind, args: list[str], root: Path, base: Path, clean: Clean,
                 n: int) -> Trial:
    trial.notes += [f"at kill: journal {journal_left(root)}, {len(temp_files(root))} temp"]
    trial.notes += hit_on_missing_page(root)
    rerun = membank(args, root)
    judge(trial, root, files_of(base), clean.snap, rerun)
    if trial.verdict != "healed-identical":
        keep = WORK / "kept" / f"{kind.name}-{n}"
        copy(root, keep)
        trial.notes.append(f"root kept at {keep}")
    return trial


# ---------------------------------------------------------------------------------------------
# disk full and D16


def enospc_trials(bases: dict[str, Path], corpus: Path) -> list[Trial]:
    if os.geteuid() != 0:
        return [Trial("enospc", "skipped", "skipped", ["needs root for a tmpfs"])]
    args = ["ingest", str(corpus)]
    clean_root = copy(bases["empty"], WORK / "clean-enospc")
    ran = membank(args, clean_root)
    clean = snapshot(clean_root, ran.code)
    size = sum(-(-p.stat().st_size // 4096) * 4096 for p in clean_root.rglob("*") if p.is_file())
    trials = []
    for fraction in ENOSPC_FRACTIONS:
        kb = max(64, int(size * fraction / 1024))
        mount = WORK / f"tmpfs-{kb}k"
        mount.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={kb}k", "tmpfs", str(mount)], check=True)
        try:
            trials.append(enospc_one(kb, size // 1024, mount, bases["empty"], args, clean, files_of(bases["empty"])))
        finally:
            subprocess.run(["umount", "-l", str(mount)], check=False)
    return trials


def enospc_one(kb: int, clean_kb: int, mount: Path, base: Path, args: list[str], clean: Snapshot, base_files: dict[str, str]) -> Trial:
    root = mount / "root"
    trial = Trial("enospc", f"{kb:,} KB tmpfs (clean root: {clean_kb:,} KB)")
    try:
        copy(base, root)
    except OSError:
        trial.verdict = "skipped"
        trial.notes.append("base does not fit")
        return trial
    first = membank(args, root)
    full_err = [line for line in first.err.splitlines() if "disk full" in line or "No space" in line]
    trial.notes.append(f"first exit {first.code}: {(full_err or ['no ENOSPC'])[0][:160]}")
    again = membank(args, root)
    trial.notes.append(f"rerun on full disk exit {again.code}")
    subprocess.run(["mount", "-o", "remount,size=256m", str(mount)], check=True)
    rerun = membank(args, root)
    judge(trial, root, base_files, clean, rerun)
    return trial


def d16_trials(bases: dict[str, Path], limit: int) -> list[Trial]:
    note = WORK / "secret-notes.md"
    note.write_text(SECRET_NOTE)
    args = ["ingest", "--allow-secrets", "--no-distill", str(note)]
    renames = count_renames(args, copy(bases["empty"], WORK / "count")) if shutil.which("strace") else 0
    trials = []
    for nth in sample(renames, limit):
        root = copy(bases["empty"], WORK / "t")
        killed, seconds = killed_at_rename(args, root, nth)
        trial = Trial("d16", f"--allow-secrets ingest killed at rename #{nth}/{renames}", seconds=seconds)
        trials.append(trial)
        if not killed:
            trial.verdict = "finished"
            continue
        plain = membank(["ingest", "--no-distill", str(note)], root)
        stored = [p.relative_to(root).as_posix() for p in root.rglob("*")
                  if p.is_file() and ".membank" not in p.parts and SECRET.encode() in p.read_bytes()]
        allowed = "secretsAllowed" in (root / "context" / "raw-manifest.jsonc").read_text() \
            if (root / "context" / "raw-manifest.jsonc").is_file() else False
        if not stored:
            trial.verdict = "refused"
            trial.notes.append(f"plain rerun exit {plain.code}")
        elif allowed:
            trial.verdict = "stored (allowed batch committed)"
        else:
            trial.verdict = "BYPASS"
            trial.notes.append(f"secret in {stored[:3]} without secretsAllowed, rerun exit {plain.code}")
    return trials


def sample(total: int, budget: int) -> list[int]:
    if total <= budget:
        return list(range(1, total + 1))
    stride = (total - 1) / max(1, budget - 1)
    return sorted({1 + round(i * stride) for i in range(budget)})


# ---------------------------------------------------------------------------------------------
# the table


def table(trials: list[Trial]) -> list[str]:
    rows = ["| trial kind | tried | identical | different | not healed | lost | finished before the kill | notes |",
            "|---|---|---|---|---|---|---|---|"]
    for name in dict.fromkeys(t.kind for t in trials):
        group = [t for t in trials if t.kind == name]
        count = {v: sum(1 for t in group if t.verdict == v) for v in
                 ("healed-identical", "healed-different", "not healed", "data lost", "finished")}
        tried = len(group) - count["finished"]
        notes = "; ".join(f"{t.how}: {t.verdict} ({', '.join(t.notes[-3:])})" for t in group
                          if t.verdict not in ("healed-identical", "finished", "refused"))[:600]
        if name == "d16":
            notes = (f"plain rerun after an `--allow-secrets` ingest killed at a rename: "
                     f"{sum(t.verdict == 'refused' for t in group)} refused the secret, "
                     f"{sum(t.verdict.startswith('stored') for t in group)} stored it with its "
                     f"secretsAllowed record (the killed batch had committed), "
                     f"{sum(t.verdict == 'BYPASS' for t in group)} stored it without (bypass)")
            count["not healed"] = sum(t.verdict == "BYPASS" for t in group)
        rows.append(f"| {name} | {tried} | {count['healed-identical']} | {count['healed-different']} | "
                    f"{count['not healed']} | {count['data lost']} | {count['finished']} | {notes or '-'} |")
    return rows


def report(trials: list[Trial], opts: argparse.Namespace, counts: dict[str, int], seconds: float) -> str:
    kill = [t for t in trials if t.kind not in ("enospc", "d16", "control") and t.verdict != "finished"]
    temps = sum(1 for t in trials if any(n.startswith("temp") for n in t.notes))
    d16 = [t for t in trials if t.kind == "d16"]
    lines = [
        f"# bench_trials results ({datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')})", "",
        f"`benchmarks/bench_trials.py {' '.join(sys.argv[1:])}` on commit "
        f"`{git_head()}`; corpus {opts.files} files, {opts.proposals} proposals; counts "
        f"{', '.join(f'{k}={v}' for k, v in counts.items())}; seed {opts.seed}; "
        f"MEMBANK_FIXED_CLOCK={CLOCK}; wall {seconds / 60:.1f} min on 2 shared cores.", "",
        "Method and verdicts: the module docstring (the report's Method). log.md is compared "
        "(it carries the problem counts that showed D16).", "",
        *table(trials), "",
        f"Totals: {len(kill)} kill -9 trials: "
        f"{sum(t.verdict == 'healed-identical' for t in kill)} identical, "
        f"{sum(t.verdict == 'healed-different' for t in kill)} different, "
        f"{sum(t.verdict == 'not healed' for t in kill)} not healed, "
        f"{sum(t.verdict == 'data lost' for t in kill)} lost; trials with temp files left: {temps}; "
        f"D16 (secret after a crash): {sum(t.verdict == 'BYPASS' for t in d16)} bypasses in "
        f"{sum(t.verdict != 'finished' for t in d16)} kills.", "",
        "Reader before the rerun (hits naming a missing page, search errors): "
        f"{sum(1 for t in kill if any(n.startswith(('hit on missing', 'search exit')) for n in t.notes))} trials.", "",
        "## Every trial", "",
        *[f"- {t.kind}: {t.how}, {t.seconds:.1f} s: **{t.verdict}**"
          + (f" ({'; '.join(t.notes)})" if t.notes else "") for t in trials],
    ]
    return "\n".join(lines) + "\n"


def git_head() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                          cwd=REPO, check=False)
    return done.stdout.strip()


def forget_topics(full: Path) -> tuple[str, str]:
    """The report forgot "Redis" (purge) and "Terraform" (soft); fall back to what is there."""
    text = " ".join(p.read_text(errors="replace") for p in (full / "wiki").rglob("*.md"))
    chosen = [t for t in ("Redis", "Terraform", "Kubernetes", "Postgres", "httpx") if t.lower() in text.lower()]
    return (chosen + ["Upload Service", "Upload Service"])[0], (chosen + ["Upload Service"] * 2)[1]


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="the report's corpus (200 files) and counts")
    parser.add_argument("--counts", default="", help="kind=N,... (ingest, distill, propose, reconcile, "
                        "forget, rebuild)")
    parser.add_argument("--files", type=int, default=None)
    parser.add_argument("--proposals", type=int, default=None)
    parser.add_argument("--d16", type=int, default=None, help="kill points of the D16 check")
    parser.add_argument("--no-enospc", action="store_true")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    opts = parser.parse_args()
    opts.files = opts.files or (FULL_FILES if opts.full else REDUCED_FILES)
    opts.proposals = opts.proposals or (FULL_PROPOSALS if opts.full else REDUCED_PROPOSALS)
    opts.d16 = opts.d16 or (99 if opts.full else 8)
    return opts


def main() -> None:
    opts = parse()
    counts = dict(FULL if opts.full else REDUCED)
    for item in filter(None, opts.counts.split(",")):
        name, value = item.split("=")
        counts[name.strip()] = int(value)
    if not MEMBANK.is_file():
        raise SystemExit(f"{MEMBANK} missing: make the venv first")
    if not shutil.which("strace"):
        print("strace not found: random delays only (apt-get install strace)", flush=True)
    started = time.monotonic()
    rng = random.Random(opts.seed)
    corpus = build_corpus(opts.files)
    print(f"work folder {WORK}; building base roots ...", flush=True)
    bases = build_bases(corpus, opts.proposals)
    topics = forget_topics(bases["full"])
    trials: list[Trial] = []
    cache: dict[str, Clean] = {}
    for kind in kinds(corpus, topics):
        for n in range(counts.get(kind.name, 0)):
            args = forget_args(topics, n, bases[kind.base]) if kind.name == "forget" else kind.args
            clean = clean_run(args, bases[kind.base], cache)
            if n == 0 and kind.name == "ingest":
                trials.append(control(kind, args, bases[kind.base], clean))
                print(f"control (no kill, rerun): {trials[-1].verdict} {trials[-1].notes}", flush=True)
            for trial in one_trial(kind, args, bases[kind.base], clean, rng, n):
                trials.append(trial)
                print(f"{trial.kind}: {trial.how}: {trial.verdict} {trial.notes}", flush=True)
    if not opts.no_enospc:
        trials += enospc_trials(bases, corpus)
        print(*(f"enospc {t.how}: {t.verdict} {t.notes}" for t in trials if t.kind == "enospc"), sep="\n")
    trials += d16_trials(bases, opts.d16)
    print(*(f"d16 {t.how}: {t.verdict} {t.notes}" for t in trials if t.kind == "d16"), sep="\n")
    text = report(trials, opts, counts, time.monotonic() - started)
    RESULTS.write_text(text)
    print(text)
    if not opts.keep and not (WORK / "kept").exists():
        shutil.rmtree(WORK, ignore_errors=True)


if __name__ == "__main__":
    main()
