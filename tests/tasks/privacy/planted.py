"""A planted-secrets corpus: one value per detector kind, and the false positives that must pass.

The values are published documentation examples or made up for these tests; none is live.
"""

from __future__ import annotations

# (kind, line as it would appear in a note, the value that must never be printed)
SECRETS = [
    ("AWS Access Key", "aws key AKIAQ3EGRPLX5N7TZW4K in the deploy notes", "AKIAQ3EGRPLX5N7TZW4K"),
    ("Secret Keyword", "password = hunter2horse", "hunter2horse"),
    ("GitHub Token", "token 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", "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"),
    ("Slack Token", "bot xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx",
     "xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx"),
    ("Stripe Access Key", "stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"),
    ("JSON Web Token",
     "jwt eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
     "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"),
    ("Base64 High Entropy String", 'signing = "c2VjcmV0LXNpZ25pbmcta2V5LTlmMmMtZDQxYS1tZW1iYW5r"',
     "c2VjcmV0LXNpZ25pbmcta2V5LTlmMmMtZDQxYS1tZW1iYW5r"),
    ("Hex High Entropy String", 'session "9b1f3a7c2e8d4f60a1b2c3d4e5f60718"', "9b1f3a7c2e8d4f60a1b2c3d4e5f60718"),
    ("Basic Auth Credentials", "db https://admin:Tr0ub4dor3x@db.internal.acme.io/prod", "Tr0ub4dor3x"),
]
PII = [
    ("Email Address", "write to jane.doe@acme-corp.io about it", "jane.doe@acme-corp.io"),
    ("Phone Number", "call +1 415-555-2671 after six", "+1 415-555-2671"),
    ("Payment Card Number", "card 4111 1111 1111 1111 on file", "4111 1111 1111 1111"),
]
# Lines that must give no finding at all.
FALSE_POSITIVES = [
    "id 123e4567-e89b-12d3-a456-426614174000 of the run",
    '"rawAssetId": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",',
    "contentHash: sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    'derived_from: ["raw/2026-03-24T22-40-05Z__upload-logs.md"]',
    "example key AKIAIOSFODNN7EXAMPLE  <!-- pragma: allowlist secret -->",
    "password = hunter2horse  # pragma: allowlist secret",
    "mail user@example.com or ops@mail.example.org (reserved domains)",
    "card 4111 1111 1111 1112 fails the Luhn check",
    "version 1.2.3 released 2026-03-24, build 20260324123456",
    "The password is kept in the vault, never in notes.",
    "$ http --proxy=http:http://user:pass@10.10.1.10:3128 example.org",
    'with httpx.Client(proxy="http://username:password@localhost:8030") as client:',
    "For example `screenshot@~/Pictures/img.png`, or `'cv@cv.txt;type=text/markdown'`.",
    "password = changeme",
    # Examples marked as examples, placeholders, and hashes with no secret-like key beside them.
    "aws key AKIAIOSFODNN7EXAMPLE from the AWS documentation",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "-----BEGIN PRIVATE KEY-----\\n... (paste yours)",
    "'etag': '\"e1ca502697e5c9317743dc078f67693f\"',",
    'deployed "9fceb02d0ae598e95dc970b74767f19372d61af8" at 14:02',
    "def connect(user: str, password: str) -> None:",
    # A role in minutes and org pages, read by the keyword plugin as `secret\w*:` (heldout11).
    "Secretary: Hana Okafor",
    "**Secretary:** Mei Lin (Security), minutes circulated by Friday",
    "Secretariat: platform-arb@ mailing list",
    # A sentence going on after "password:" (heldout26's runbook): prose, not a value.
    "These need the client's password: quarantine the item and tell the case team.",
    "Token: ask the on-call engineer for it in the incident channel",
]

SECRETS.insert(1, ("Private Key", "", "BEGIN EC PRIVATE KEY"))  # the line is EC_KEY, set below

# Private keys generated for these tests (never used anywhere): whole PEM blocks.
EC_KEY = """-----BEGIN EC PRIVATE KEY-----
MHcCAQEEIIkFHpQzjWpX8MfAyk4taZYGT33JarHiHbnbApoI85KJoAoGCCqGSM49
AwEHoUQDQgAELZgKdgC+8URQx/vCfuF+kRSLoPWRPRThkiCaCnkN7aFAlanELz97
ahAFReNZ3zZm4UwEXL7boih927iTRssmKQ==
-----END EC PRIVATE KEY-----"""
RSA_KEY = """-----BEGIN RSA PRIVATE KEY-----
MIICXgIBAAKBgQDBWYoESitTfCuKGYgJjgM3wpAeq1oo27ecpQctVe291E8Y1X3c
i1uuW3G9Hg6n80/urrkKXwXLMo1kL4SP8CY4WyZ+bsdyxoRpUV/KJrnufLUicSUg
ZnGJz16EtMdh+CcEiVpXwf6b9mEGN+YswYE/J7VghhgqxFGTv8orT5xzvQIDAQAB
AoGBALcM7EvPZGFvp1Dhhxd0qbs6qnM+yubvzU+yNa9IMQKNZC0gwj3weeYCkRX4
xOtgwYY5SNp2x+dufsog6qHTPHppWE6MOycgItI6uG1wJfr7QVngbxlI/5JwZW9l
5G8xVu61SPvM2CjJHl9CVwD+ajJBv3oMN4bUmD149n+HqkoJAkEA/k3ypg8sVFKY
7Xfva6aHngtimwAlMTjHxa5OdUDiRdyNWRtkKchtaeD4kOgkPkHfeDV4++ol7d+r
NoxN7+yp8wJBAMKjjXDDe+WXB+ULvdBHBXVw8lKhFVmCnXtb/lG62DuDDIf9dauv
t8xQ4jgq6xayVCyf+wg4wBcaTjHvrPFEp48CQEf91xiNqRYCAAsR7fSCw1fJj1Oj
+eNyWJOs4cct5CC07EryhyuQ8vCLYLLdFQ2O5m2IbcSbJ7usmzKpC5NFY2MCQQCM
3N0STQevwzw9cd/vilbTBej6EAZpf3QFwTAvai/v8gnxqWet10AHqEnwKG93P5xX
p3iAHMI4dhs9XJ4nBm7VAkEAyUSLt0CJP1DAxH+z/zw2rs2J1hYbPmfANd3LyuDs
CbQTWhgOd2aE3EIlZvapajstVJ5YGF+kugF6C+Hrkc2z4g==
-----END RSA PRIVATE KEY-----"""


def key_body_words(key: str) -> list[str]:
    """The base64 lines of a PEM block: none of them may survive a redaction."""
    return [line for line in key.splitlines() if not line.startswith("-----")]


SECRETS[1] = ("Private Key", EC_KEY, EC_KEY.splitlines()[1])  # a body line is the key
