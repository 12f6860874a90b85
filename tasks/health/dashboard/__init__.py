"""The ops dashboard (context/health/dashboard.html): history (read history.jsonl, tolerating a
hand-edited line) -> charts (the vendored Chartist and each chart's data) -> page (the one
self-contained HTML page) -> build (what a health write and `membank dashboard` call)."""
