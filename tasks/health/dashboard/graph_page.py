"""The knowledge view's HTML: toolbar, drawing area, side panel; the model inlined as JSON.

Pure string building; no I/O but reading the page's own script and the vendored d3-force once
per process. The drawing is done in the page (tasks/health/dashboard/graph_view.js): it lays out only
what is shown (the most connected entities, a search's hits, or one entity's neighbourhood)
with d3-force, so a 10,000-entity graph costs the browser a JSON parse, not a hairball.

d3-force 3.0.1 with the three modules it needs (d3-dispatch, d3-quadtree, d3-timer 3.0.2), ISC,
vendored minified and unchanged in tasks/health/dashboard/vendor/d3-force/ (about 17 KB together).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from html import escape
from pathlib import Path
from typing import Any

import orjson

from tasks.store.errors import MembankError

D3_FORCE_VERSION = "3.0.1"
HERE = Path(__file__).resolve().parent
VENDOR = HERE / "vendor" / "d3-force"
# dependencies first: d3-force's UMD wrapper reads the other three from the global d3
VENDOR_SCRIPTS = ("d3-dispatch.min.js", "d3-quadtree.min.js", "d3-timer.min.js", "d3-force.min.js")

# The page may fetch nothing: no script, style, font or image from anywhere.
_CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
        "img-src data:; base-uri 'none'; form-action 'none'")

_CSS = """
:root{--bg:#fff;--fg:#1f2328;--muted:#59636e;--grid:#d1d9e0;--card:#f6f8fa;--edge:#8c959f;
--gone:#afb8c1;--hit:#bf8700;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;
--grid:#30363d;--card:#161b22;--edge:#6e7681;--gone:#484f58;--hit:#e3b341}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,sans-serif}
header{padding:.6rem 1rem .2rem}h1{font-size:1.3rem;margin:0}h2{font-size:1.1rem;margin:0 0 .3rem;
overflow-wrap:anywhere}h3{font-size:.9rem;margin:.8rem 0 .3rem}
.muted{color:var(--muted)}a{color:#2f81f7}
.bar{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;padding:.4rem 1rem}
input,select,button{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--grid);
border-radius:6px;padding:.3rem .5rem}
input[type=search]{flex:1 1 16rem;min-width:0}select{max-width:min(100%,20rem)}
button{cursor:pointer}
#types{display:flex;flex-wrap:wrap;gap:.1rem .7rem;padding:0 1rem;font-size:.82rem}
#types label{display:flex;align-items:center;gap:.25rem;cursor:pointer}
.sw{display:inline-block;width:.7rem;height:.7rem;border-radius:50%}
.wrap{display:flex;gap:.8rem;padding:.5rem 1rem 1rem;align-items:stretch}
#canvas{flex:1 1 auto;min-width:0;height:calc(100vh - 11.5rem);min-height:24rem;background:var(--card);
border:1px solid var(--grid);border-radius:8px;touch-action:none;cursor:grab}
#panel{flex:0 0 24rem;max-height:calc(100vh - 11.5rem);min-height:24rem;overflow:auto;background:var(--card);
border:1px solid var(--grid);border-radius:8px;padding:.8rem}
@media (max-width:800px){.wrap{flex-direction:column}#panel{flex:none;max-height:none}
#canvas{height:60vh}}
#panel ul{padding-left:1.1rem;margin:.2rem 0}#panel li{margin:.25rem 0;overflow-wrap:anywhere}
#panel li.gone{color:var(--muted);text-decoration:line-through;text-decoration-color:var(--gone)}
.note,.where{display:block;font-size:.8rem;color:var(--muted);text-decoration:none}
.where a{margin-right:.5rem}
button.link{display:inline;border:none;background:none;color:#2f81f7;padding:0;text-align:left;font:inherit}
.edge{stroke:var(--edge);stroke-width:1.2px;stroke-opacity:.7}
.edge.gone{stroke:var(--gone);stroke-dasharray:4 3}
.node circle{stroke:var(--bg);stroke-width:1.5px;cursor:pointer}
.node.gone circle{fill:var(--gone)!important;opacity:.6}
.node.focus circle{stroke:var(--hit);stroke-width:4px}
.node.hit circle{stroke:var(--hit);stroke-width:2.5px}
.node text{font-size:var(--label,11px);fill:var(--fg);paint-order:stroke;stroke:var(--card);
stroke-width:.25em;
pointer-events:none}
.node.gone text{fill:var(--muted)}
marker path{fill:var(--edge)}
.problem{margin:1rem;padding:1rem;border:1px solid var(--grid);border-radius:8px;background:var(--card)}
"""


def _e(value: object) -> str:
    return escape("" if value is None else str(value))


@cache
def page_scripts() -> tuple[str, str]:
    """(the vendored d3-force bundle, the page's own script), read once per process."""
    vendored = "\n".join((VENDOR / name).read_text(encoding="utf-8") for name in VENDOR_SCRIPTS)
    own = (HERE / "graph_view.js").read_text(encoding="utf-8")
    return vendored.replace("</script", "<\\/script"), own.replace("</script", "<\\/script")


_DATA_OPEN = '<script type="application/json" id="graph-data">'


def escaped_json(value: object) -> bytes:
    """orjson's compact JSON of `value` with every `<` escaped, so no value can end or bend the
    script element (a `<` byte is never part of a multi-byte UTF-8 character)."""
    return orjson.dumps(value).replace(b"<", b"\\u003c")


def _model_json(model: Mapping[str, Any]) -> str:
    return escaped_json(model).decode()


def model_script(model: Mapping[str, Any]) -> str:
    """The model as a JSON script element; every `<` escaped, so no value can end or bend it."""
    return f"{_DATA_OPEN}{_model_json(model)}</script>"


def counts_text(entities: int, relations: int, retired_relations: int, observations: int,
                superseded: int) -> str:
    """The page's one-line summary of what the model holds."""
    return (f"{entities:,} entities, {relations - retired_relations:,} relations "
            f"({retired_relations:,} superseded), {observations - superseded:,} observations "
            f"({superseded:,} superseded)")


def _counts(model: Mapping[str, Any]) -> str:
    observations = sum(len(items) for items in model["obs"])
    superseded = sum(1 for items in model["obs"] for item in items if item[2])
    edges = model["edges"]
    retired = sum(1 for edge in edges if edge[3])
    return counts_text(len(model["nodes"]), len(edges), retired, observations, superseded)


def _head(title: str, digest: str) -> str:
    inputs = f'<meta name="membank-graph-inputs" content="{_e(digest)}">' if digest else ""
    return ('<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">{inputs}'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f'<title>{_e(title)}</title><style>{_CSS}</style></head><body>\n')


_BODY = """<div class="bar"><input id="search" type="search" autocomplete="off"
placeholder="search entities by name, alias or type" aria-label="search entities">
<select id="hub" aria-label="hub"><option value="">every hub</option></select>
<button id="overview" type="button">overview</button>
<span class="muted" id="shown" role="status"></span></div>
<div id="types" aria-label="entity types"></div>
<div class="wrap"><svg id="canvas" role="img" aria-label="knowledge graph"></svg>
<aside id="panel" aria-live="polite"></aside></div>
"""


def render_graph_page(model: Mapping[str, Any] | None, *, problem: MembankError | None = None,
                      digest: str = "") -> str:
    """The page for `model`, or, with no model, a page that says what is wrong (`problem`);
    `digest` names the inputs it was drawn from (tasks/health/dashboard/graph_view.py skips a redraw
    from the same ones)."""
    if model is None:
        cause = problem.cause if problem else "no knowledge graph"
        return (_head("membank knowledge: none", digest) +
                f'<header><h1>membank knowledge</h1></header><section class="problem" id="problem">'
                f'<p><strong>{_e(cause)}</strong></p>'
                f'<p class="muted">{_e(problem.file if problem else "")}</p>'
                f'<p>{_e(problem.hint if problem else "")}</p></section></body></html>\n')
    return page_open(len(model["nodes"]), _counts(model), model["graph"], digest) + \
        _model_json(model) + page_close()


def page_open(entities: int, counts: str, graph: str, digest: str) -> str:
    """The page up to its model's JSON (render_graph_page's first part; the streamed view,
    tasks/health/dashboard/graph_view_stream.py, writes the model between this and
    page_close())."""
    return (_head(f"membank knowledge: {entities:,} entities", digest) +
            f'<header><h1>membank knowledge</h1><p class="muted" id="counts">{_e(counts)}; '
            f'graph of {_e(graph)}</p></header>\n{_BODY}{_DATA_OPEN}')


def page_close() -> str:
    """The page after its model's JSON: the scripts that draw it."""
    vendored, own = page_scripts()
    return f'</script>\n<script>{vendored}</script>\n<script>{own}</script>\n</body></html>\n'
