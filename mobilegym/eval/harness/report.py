"""The static HTML report of a ``mobilegym eval`` results folder: ``report.html`` beside the results.

One self-contained page that works from ``file://`` with no server: a header from meta.json,
summary tables from summary.json, the per-task results table with filters, and a trajectory
viewer that steps through each episode's annotated screenshots with the judge's checks. The
viewer's data is embedded as JSON in a ``<script type="application/json">`` element (browsers
block ``fetch`` of local files); screenshots and plots are referenced by relative path, so the
folder moves as a whole. Instructions and model responses are untrusted: every piece of text is
HTML-escaped here and set with ``textContent`` by the script, and a Content-Security-Policy with
the hashes of the page's own script and style lets nothing else run.
"""
from __future__ import annotations

import base64
import hashlib
import html
import json
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping
from urllib.parse import quote

REPORT_FILE = "report.html"
PLOT_DIR = "plots"  # where plots.py writes its PNGs
TEXT_LIMIT = 4000  # characters of one step's thought/response/error kept in the page (all are in steps.jsonl)
GROUPS = (("suite", "By suite"), ("difficulty", "By difficulty"), ("objective", "By objective"), ("app", "By app"),
          ("task", "By task"))
OUTCOMES = ("success", "fail", "error")


class ReportError(ValueError):
    """A results folder the report cannot read: a missing or malformed file, named in the message."""


def read_json(path: Path) -> Any:
    """One JSON file of the results folder."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ReportError(f"{path} is missing: is this a `mobilegym eval` results folder?") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ReportError(f"{path} is not valid JSON: {e}") from None


def read_jsonl(path: Path, *, required: bool = True) -> list[dict[str, Any]]:
    """The JSON objects of a JSON-lines file, one a line (blank lines skipped)."""
    if not path.exists():
        if required:
            raise ReportError(f"{path} is missing: is this a `mobilegym eval` results folder?")
        return []
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise ReportError(f"{path}:{number} is not valid JSON: {e}") from None
        if not isinstance(row, dict):
            raise ReportError(f"{path}:{number} is not a JSON object")
        rows.append(row)
    return rows


def write_report(results_dir: str | Path) -> Path:
    """Write ``results_dir/report.html`` and return its path.

    The page shows the PNGs in ``results_dir/plots/`` (write them first with
    :func:`~mobilegym.eval.harness.plots.write_plots`). It depends only on the folder's files, so
    the same results give the same bytes.
    """
    root = Path(results_dir)
    if not root.is_dir():
        raise ReportError(f"results folder {root} does not exist")
    meta = read_json(root / "meta.json")
    summary = read_json(root / "summary.json")
    if not isinstance(meta, dict) or not isinstance(summary, dict):
        raise ReportError(f"{root}: meta.json and summary.json must each hold a JSON object")
    episodes = load_episodes(root)
    viewer = [_viewer_episode(root, row) for row in episodes]
    plots = sorted(p.relative_to(root).as_posix() for p in (root / PLOT_DIR).glob("*.png"))
    out = root / REPORT_FILE
    out.write_text(_page(meta, summary, episodes, viewer, plots), encoding="utf-8")
    return out


# ---- reading the results folder ----

def load_episodes(root: Path) -> list[dict[str, Any]]:
    """Every episode's row, from results.jsonl and errors.jsonl, in a fixed order (task, seeds).

    A later row of an episode replaces an earlier one (a resumed or rerun episode); an errored row
    of results.jsonl takes its traceback from errors.jsonl, and an episode only in errors.jsonl is
    listed as errored.
    """
    rows: dict[str, dict[str, Any]] = {}
    for name in ("results.jsonl", "errors.jsonl"):
        path = root / name
        for row in read_jsonl(path, required=name == "results.jsonl"):
            for key in ("episode_id", "task_id"):
                if not isinstance(row.get(key), str):
                    raise ReportError(f"{path}: a row has no {key!r}: {json.dumps(row)[:200]}")
            known = rows.get(row["episode_id"])
            if name == "errors.jsonl" and known is not None:
                if known.get("error_kind") and row.get("traceback"):
                    known["traceback"] = row["traceback"]
                continue
            rows[row["episode_id"]] = dict(row)
    return sorted(rows.values(), key=_episode_order)


def _episode_order(row: Mapping[str, Any]) -> tuple[Any, ...]:
    def number(key: str) -> int:
        value = row.get(key)
        return value if isinstance(value, int) else -1

    return row["task_id"], number("seed"), number("world_seed"), number("repeat"), row["episode_id"]


def outcome(row: Mapping[str, Any]) -> str:
    """``error`` (the episode errored), ``success`` or ``fail``."""
    if row.get("error_kind") or row.get("end") == "error":
        return "error"
    return "success" if row.get("success") else "fail"


def _inside(root: Path, path: Path, what: str) -> Path:
    """``path`` resolved, refusing paths that leave the results folder ``root``."""
    resolved = path.resolve()
    if not resolved.is_relative_to(root.resolve()):
        raise ReportError(f"{what} {str(path)!r} points outside the results folder {root}")
    return resolved


def _url(root: Path, path: Path) -> str:
    """A relative URL from report.html to a file of the results folder."""
    return "/".join(quote(part) for part in path.relative_to(root.resolve()).parts)


def _clip(value: Any) -> str | None:
    if value is None:
        return None
    text = _json_text(value)
    if len(text) <= TEXT_LIMIT:
        return text
    return f"{text[:TEXT_LIMIT]}\n… ({len(text) - TEXT_LIMIT} more characters in steps.jsonl)"


def _viewer_episode(root: Path, row: Mapping[str, Any]) -> dict[str, Any]:
    """What the trajectory viewer shows of one episode: its row, judge result and frames."""
    judge: Mapping[str, Any] = {}
    frames: list[dict[str, Any]] = []
    note = None
    trajectory = row.get("trajectory")
    if not trajectory:
        note = "No trajectory was recorded for this episode."
    else:
        folder = _inside(root, root / trajectory, f"episode {row['episode_id']}: trajectory")
        if not folder.is_dir():
            note = f"The trajectory folder {trajectory} is missing."
        else:
            if (folder / "episode.json").exists():
                record = read_json(folder / "episode.json")
                found = record.get("judge") if isinstance(record, dict) else None
                judge = found if isinstance(found, dict) else {}
            frames = _frames(root, folder, row["episode_id"])
    return {
        "id": row["episode_id"], "task_id": row["task_id"], "instruction": row.get("instruction"),
        "outcome": outcome(row), "score": row.get("score"), "progress": row.get("progress"),
        "steps": row.get("steps"), "end": row.get("end"), "error_kind": row.get("error_kind"),
        "error": _clip(row.get("error")), "traceback": row.get("traceback"),
        "checks": list(judge.get("checks") or row.get("checks") or []),
        "side_effects": list(judge.get("side_effects") or row.get("side_effects") or []),
        "frames": frames, "note": note,
    }


def _frames(root: Path, folder: Path, episode_id: str) -> list[dict[str, Any]]:
    """One frame per recorded step (its annotated screenshot, else the plain one), then the final screen."""
    frames = []
    for step in read_jsonl(folder / "steps.jsonl", required=False):
        image = None
        for key in ("annotated", "screenshot"):
            if step.get(key):
                path = _inside(root, folder / str(step[key]), f"episode {episode_id}: step {step.get('step')} {key}")
                if path.exists():
                    image = _url(root, path)
                    break
        screen = " ".join(str(step[k]) for k in ("app", "route") if step.get(k)) or None
        frames.append({
            "label": f"Step {step.get('step', len(frames))}", "image": image,
            "action": _clip(step.get("action")), "thought": _clip(step.get("thought")),
            "response": _clip(step.get("response")), "error": _clip(step.get("error")),
            "reward": step.get("reward"), "screen": screen, "usage": step.get("usage") or None,
        })
    final = folder / "final.png"
    if final.exists():
        frames.append({"label": "Final screen", "image": _url(root, final)})
    return frames


# ---- formatting ----

def _esc(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _value(value: Any) -> Any:
    """A summary metric as a number: plain, or the ``mean`` of a {mean, ci95} record."""
    return value.get("mean") if isinstance(value, dict) else value


def _pct(value: Any) -> str:
    value = _value(value)
    return f"{100 * value:.1f}%" if isinstance(value, (int, float)) else "–"


def _rate_ci(rate: Any) -> str:
    """``41.7% (95% CI 22.1–63.4%)``."""
    if not isinstance(rate, dict):
        return _pct(rate)
    ci = rate.get("ci95")
    if not (isinstance(ci, list) and len(ci) == 2 and all(isinstance(x, (int, float)) for x in ci)):
        return _pct(rate)
    return f"{_pct(rate)} (95% CI {100 * ci[0]:.1f}–{100 * ci[1]:.1f}%)"


def _number(value: Any, digits: int = 1) -> str:
    value = _value(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "–"
    return f"{value:,}" if isinstance(value, int) else f"{value:,.{digits}f}"


def _pass_at_k(values: Any) -> str:
    if not isinstance(values, dict) or not values:
        return "–"
    keys = sorted(values, key=lambda k: int(k) if str(k).isdigit() else 10**9)
    return " · ".join(f"pass@{k} {_pct(values[k])}" for k in keys)


def _tokens(tokens: Any) -> str:
    if not isinstance(tokens, dict):
        return "–"
    return f"{_number(tokens.get('prompt'))} prompt · {_number(tokens.get('completion'))} completion"


def _json_text(value: Any) -> str:
    """Text as itself, anything else as JSON in the order recorded (an action reads type first)."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _script_json(data: Any) -> str:
    """JSON safe inside a <script> element: '<', '>' and '&' only occur in strings, as \\u escapes."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def _asset(name: str) -> str:
    return (resources.files(__package__) / "report_assets" / name).read_text(encoding="utf-8")


# ---- the page ----

def _page(meta: Mapping[str, Any], summary: Mapping[str, Any], episodes: list[dict[str, Any]],
          viewer: list[dict[str, Any]], plots: list[str]) -> str:
    style, script = _asset("report.css"), _asset("report.js")
    agent = _mapping(meta.get("agent"))
    title = f"MobileGym evaluation — {agent.get('name', 'agent')}"
    if model := _model(agent, _mapping(meta.get("config"))):
        title += f" ({model})"
    csp = (f"default-src 'none'; img-src 'self' file:; style-src {_csp_hash(style)}; "
           f"script-src {_csp_hash(script)}; base-uri 'none'; form-action 'none'")
    parts = [
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{_esc(csp)}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_esc(title)}</title>", f"<style>{style}</style>", "</head>", "<body>",
        _header(title, meta), _summary(summary), _plots(plots), _configuration(meta), _tasks(episodes), _viewer(),
        f'<script type="application/json" id="report-data">{_script_json({"episodes": viewer})}</script>',
        f"<script>{script}</script>", "</body>", "</html>", "",
    ]
    return "\n".join(parts)


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _model(agent: Mapping[str, Any], config: Mapping[str, Any]) -> Any:
    """The model behind the agent: its own record, else its options in meta.json."""
    return (agent.get("model") or _mapping(agent.get("options")).get("model")
            or _mapping(config.get("agent_options")).get("model"))


def _definitions(pairs: Iterable[tuple[str, Any]]) -> str:
    items = "".join(f"<dt>{_esc(k)}</dt><dd>{_esc(v)}</dd>" for k, v in pairs if v not in (None, ""))
    return f'<dl class="meta" id="run-meta">{items}</dl>'


def _header(title: str, meta: Mapping[str, Any]) -> str:
    """The run in a few lines: agent, model, prompt version, versions, date (from meta.json, never this
    machine's clock); the rest of the agent's record and the configuration follow the summary."""
    agent, config, git = _mapping(meta.get("agent")), _mapping(meta.get("config")), _mapping(meta.get("git"))
    commit = git.get("commit")
    if commit and git.get("dirty"):
        commit = f"{commit} (with uncommitted changes)"
    version = agent.get("version")
    return (
        f'<header><h1>{_esc(title)}</h1><p class="subtitle">Written by '
        f'{_esc(meta.get("created_by", "mobilegym eval"))} from the results in this folder.</p>'
        + _definitions([("Agent", f"{agent.get('name', '')} {'v' + str(version) if version else ''}".strip()),
                        ("Model", _model(agent, config)), ("Prompt version", agent.get("prompt_version")),
                        ("MobileGym version", meta.get("mobilegym_version")), ("Git commit", commit),
                        ("Python", meta.get("python")), ("Date", meta.get("created_at"))])
        + '<p class="note"><a href="#configuration">Agent and run configuration</a> below the summary.</p>'
        "</header>"
    )


HEADER_AGENT_KEYS = {"name", "version", "model", "prompt_version"}


def _configuration(meta: Mapping[str, Any]) -> str:
    """The agent's full record (adapter, sampling, history, ...) and the run's configuration, folded."""
    agent, config = _mapping(meta.get("agent")), _mapping(meta.get("config"))

    def rows(record: Mapping[str, Any], skip: set[str]) -> str:
        return "".join(f"<tr><th>{_esc(key)}</th><td><code>{_esc(_json_text(record[key]))}</code></td></tr>"
                       for key in sorted(record) if key not in skip)

    return ('<section id="configuration"><h2>Configuration</h2>'
            f'<details id="agent-configuration"><summary>Agent ({len(set(agent) - HEADER_AGENT_KEYS)} settings)'
            f'</summary><table><tbody>{rows(agent, HEADER_AGENT_KEYS)}</tbody></table></details>'
            f'<details id="run-configuration"><summary>Run ({len(config)} options)</summary>'
            f"<table><tbody>{rows(config, set())}</tbody></table></details></section>")


def _errors(record: Mapping[str, Any]) -> str:
    """``2 (model_error 1, task_error 1)``."""
    kinds = _mapping(record.get("errors_by_kind"))
    detail = ", ".join(f"{kind} {kinds[kind]}" for kind in sorted(kinds))
    return f"{_number(record.get('errors'))} ({detail})" if detail else _number(record.get("errors"))


# (label, id, the cell's text from a summary record); the same columns overall and per group
METRICS: tuple[tuple[str, str, Callable[[Mapping[str, Any]], str]], ...] = (
    ("Episodes", "episodes", lambda r: _number(r.get("episodes"))),
    ("Errors", "errors", _errors),
    ("Success rate", "success_rate", lambda r: _rate_ci(r.get("success_rate"))),
    ("Progress", "progress", lambda r: _pct(r.get("progress"))),
    ("False-complete rate", "false_complete_rate", lambda r: _pct(r.get("false_complete_rate"))),
    ("Overdue rate", "overdue_rate", lambda r: _pct(r.get("overdue_rate"))),
    ("Side-effect rate", "side_effect_rate", lambda r: _pct(r.get("side_effect_rate"))),
    ("Loop rate", "loop_rate", lambda r: _pct(r.get("loop_rate"))),
    ("Average steps", "avg_steps", lambda r: _number(r.get("avg_steps"))),
    ("pass@k", "pass_at_k", lambda r: _pass_at_k(r.get("pass_at_k"))),
    ("Tokens", "tokens", lambda r: _tokens(r.get("tokens"))),
)


def _summary(summary: Mapping[str, Any]) -> str:
    overall = "".join(f'<tr><th>{label}</th><td id="metric-{ident}">{_esc(cell(summary))}</td></tr>'
                      for label, ident, cell in METRICS)
    parts = ['<section id="summary"><h2>Summary</h2>', f'<table id="overall"><tbody>{overall}</tbody></table>',
             '<p class="note">Errored episodes (task, agent or model errors) are counted apart and left out of '
             "every rate.</p>"]
    head = "".join(f"<th>{label}</th>" for label, _, _ in METRICS)
    for group, heading in GROUPS:
        records = _mapping(_mapping(summary.get("by")).get(group))
        body = "".join(
            f"<tr><th>{_esc(name)}</th>"
            + "".join(f'<td class="num">{_esc(cell(records[name]))}</td>' for _, _, cell in METRICS) + "</tr>"
            for name in sorted(records) if isinstance(records[name], dict))
        if body:
            parts.append(f'<h3>{heading}</h3><div class="scroll"><table class="by" id="by-{group}"><thead><tr>'
                         f"<th>{group.title()}</th>{head}</tr></thead><tbody>{body}</tbody></table></div>")
    parts.append("</section>")
    return "".join(parts)


def _plots(plots: list[str]) -> str:
    if not plots:
        return ""
    images = "".join(f'<img src="{_esc("/".join(quote(p) for p in path.split("/")))}" alt="{_esc(path)}">'
                     for path in plots)
    return f'<section id="plots"><h2>Plots</h2><div class="plots">{images}</div></section>'


TASK_COLUMNS = ("Episode", "Suite", "Difficulty", "Objective", "Outcome", "Score", "Progress", "Steps", "End",
                "Tokens", "Time (s)", "")


def _select(ident: str, label: str, values: Iterable[str]) -> str:
    options = "".join(f'<option value="{_esc(v)}">{_esc(v)}</option>' for v in values)
    return f'<label>{label}<select id="{ident}"><option value="">all</option>{options}</select></label>'


def _tasks(episodes: list[dict[str, Any]]) -> str:
    def distinct(key: str) -> list[str]:
        return sorted({str(row.get(key)) for row in episodes if row.get(key) is not None})

    instances: dict[tuple[Any, ...], list[int]] = {}
    for index, row in enumerate(episodes):
        instances.setdefault(_instance(row), []).append(index)
    rows = []
    for index, row in enumerate(episodes):
        key = _instance(row)
        members = instances[key]
        group = str(list(instances).index(key))
        if len(members) > 1 and members[0] == index:  # the repeats of one instance under one heading
            results = [outcome(episodes[i]) for i in members]
            world = f", world {row['world_seed']}" if row.get("world_seed") is not None else ""
            rows.append(f'<tr class="instance" data-instance="{group}"><th colspan="{len(TASK_COLUMNS)}">'
                        f'{_esc(row["task_id"])}, seed {_esc(row.get("seed"))}{_esc(world)}: '
                        f'{results.count("success")} of {len(members)} repeats succeeded'
                        + (f", {results.count('error')} errored" if "error" in results else "") + "</th></tr>")
        result = outcome(row)
        tokens = row.get("tokens") if isinstance(row.get("tokens"), dict) else {}
        total = sum(v for v in tokens.values() if isinstance(v, int) and not isinstance(v, bool))
        search = " ".join(str(row.get(k) or "") for k in ("episode_id", "task_id", "app", "instruction", "end",
                                                          "error")).lower()
        cells = [
            f'<td><code>{_esc(row["episode_id"])}</code>'
            f'<div class="instruction">{_esc(row.get("instruction"))}</div></td>',
            *(f"<td>{_esc(row.get(k))}</td>" for k in ("suite", "difficulty", "objective")),
            f'<td class="outcome outcome-{result}">{result}</td>',
            f'<td class="num">{_number(row.get("score"), 2)}</td>', f'<td class="num">{_pct(row.get("progress"))}</td>',
            f'<td class="num">{_number(row.get("steps"))}</td>', f"<td>{_esc(row.get('end'))}</td>",
            f'<td class="num">{_number(total) if tokens else "–"}</td>',
            f'<td class="num">{_number(row.get("wall_time_s"))}</td>',
            f'<td><button type="button" data-episode="{index}">View</button></td>',
        ]
        repeat = ' class="episode repeat"' if len(members) > 1 else ' class="episode"'
        rows.append(f'<tr{repeat} data-instance="{group}" data-suite="{_esc(row.get("suite"))}" '
                    f'data-difficulty="{_esc(row.get("difficulty"))}" data-outcome="{result}" '
                    f'data-search="{_esc(search)}">{"".join(cells)}</tr>')
    head = "".join(f"<th>{c}</th>" for c in TASK_COLUMNS)
    filters = (_select("filter-suite", "Suite", distinct("suite"))
               + _select("filter-difficulty", "Difficulty", distinct("difficulty"))
               + _select("filter-outcome", "Outcome", OUTCOMES)
               + '<label>Search<input type="search" id="filter-text" placeholder="task, instruction, error"></label>')
    return (f'<section id="tasks"><h2>Episodes</h2><div class="filters">{filters}</div>'
            f'<p id="task-count">{len(episodes)} episodes</p>'
            f'<div class="scroll"><table id="task-table"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody>'
            "</table></div></section>")


def _instance(row: Mapping[str, Any]) -> tuple[Any, ...]:
    """An episode's instance (its repeats share it): task, seed and world."""
    return row["task_id"], row.get("seed"), row.get("world_seed")


def _viewer() -> str:
    return (
        '<section id="viewer"><h2>Trajectory viewer</h2>'
        '<noscript><p class="note">The trajectory viewer needs JavaScript.</p></noscript>'
        '<div id="viewer-body"><label>Episode <select id="episode-select"></select></label>'
        '<div id="episode-info"></div><div class="viewer"><div class="viewer-image">'
        '<div class="step-nav"><button type="button" id="prev-step">◀ Prev</button><span id="step-label"></span>'
        '<button type="button" id="next-step">Next ▶</button></div>'
        '<img id="step-image" alt=""><p id="no-image" class="note" hidden>No screenshot recorded.</p></div>'
        '<div id="step-details"></div></div>'
        "<h3>Judge's checks</h3><table id=\"checks\"><thead><tr><th>Field</th><th>Expected</th><th>Actual</th>"
        '<th>Passed</th></tr></thead><tbody></tbody></table>'
        '<p id="no-checks" class="note" hidden>No checks recorded.</p>'
        '<h3>Side effects</h3><ul id="side-effects"></ul><p id="no-side-effects" class="note" hidden>None.</p>'
        "<p class=\"note\">Use the ← and → keys to step.</p></div></section>"
    )
