"""Health summaries: build them from findings, write them where ops dashboards read them.

Files under <root>/context/health/:
  <prefix>__<kind>-health.json   the dated summary
  latest.json, latest-<kind>.json the most recent summary (any kind / this kind)
  history.jsonl                   one compact line per run, for plotting (dashboard/build.py)
  membank-<kind>.prom             Prometheus textfile (node_exporter textfile collector)
  dashboard.html                  the ops dashboard, drawn from history.jsonl alone
  graph.html                      the knowledge view, drawn from the knowledge graph

Retention is by time, not by run: one dated summary per day per kind (the latest of that day),
history lines and dated files older than MEMBANK_HEALTH_HISTORY_DAYS are pruned.
Publishing to Prefect (artifacts, events for automations) is the flows' part: flows/health.py.
"""
