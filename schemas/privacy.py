"""Privacy files: the allowlist baseline in the memory root (detect-secrets' format).

`<root>/.secrets.baseline` is the file `detect-secrets scan > .secrets.baseline` writes (and
`detect-secrets audit` marks): results by file name, each with the secret's type and its sha1
`hashed_secret`, never the value. membank reads the parts it needs and keeps the rest. An
entry accepts that value of that type anywhere in the memory (sources are renamed when stored,
so the file name is not compared); a value any entry marks a real secret (`is_secret: true`)
is not accepted. Personal data use the same entries, with types `Email Address`,
`Phone Number`, `Payment Card Number`.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

BASELINE_FILE = ".secrets.baseline"


class BaselineResult(BaseModel):
    model_config = ConfigDict(extra="allow")

    type: str = Field(description="detect-secrets' secret type, e.g. 'AWS Access Key'.")
    hashed_secret: str = Field(pattern=r"^[0-9a-f]{40}$", description="sha1 hex of the value.")
    filename: str | None = None
    line_number: int | None = None
    is_secret: bool | None = Field(None, description="true: audited as a real secret, not accepted.")


class SecretsBaseline(BaseModel):
    model_config = ConfigDict(extra="allow")

    version: str | None = None
    results: dict[str, list[BaselineResult]] = Field(default_factory=dict)

    def accepted(self) -> frozenset[tuple[str, str]]:
        """(type, hashed_secret) pairs accepted as not sensitive: listed, and marked a real
        secret (`is_secret: true`) by no entry."""
        entries = [r for results in self.results.values() for r in results]
        real = {(r.type, r.hashed_secret) for r in entries if r.is_secret is True}
        return frozenset((r.type, r.hashed_secret) for r in entries) - real
