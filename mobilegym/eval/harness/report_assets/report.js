"use strict";
// The report's behaviour: task-table filters and the trajectory viewer. Every piece of recorded
// text reaches the page through textContent, never as markup.
(function () {
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const byId = (id) => document.getElementById(id);

  function el(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function asText(value) {
    if (value === null || value === undefined) return "";
    return typeof value === "string" ? value : JSON.stringify(value);
  }

  // a judge's side effect {path, kind, before, after, harmful}, or a row's text
  function effectText(effect) {
    if (!effect || typeof effect !== "object" || !("path" in effect)) return asText(effect);
    const change = JSON.stringify(effect.before ?? null) + " → " + JSON.stringify(effect.after ?? null);
    return effect.path + ": " + (effect.kind || "changed") + ", " + change + (effect.harmful ? " (harmful)" : "");
  }

  function percent(value) {
    return typeof value === "number" ? (100 * value).toFixed(1) + "%" : "–";
  }

  // ---- per-task table filters ----
  const rows = Array.from(document.querySelectorAll("#task-table tbody tr.episode"));
  const headings = Array.from(document.querySelectorAll("#task-table tbody tr.instance"));
  const filters = ["filter-suite", "filter-difficulty", "filter-outcome", "filter-text"].map(byId);

  function applyFilters() {
    const [suite, difficulty, outcome] = filters.slice(0, 3).map((f) => f.value);
    const text = filters[3].value.trim().toLowerCase();
    let shown = 0;
    for (const row of rows) {
      const visible = (!suite || row.dataset.suite === suite)
        && (!difficulty || row.dataset.difficulty === difficulty)
        && (!outcome || row.dataset.outcome === outcome)
        && (!text || row.dataset.search.includes(text));
      row.hidden = !visible;
      if (visible) shown += 1;
    }
    for (const heading of headings) {  // a heading of repeats shows while one of its episodes does
      heading.hidden = !rows.some((row) => !row.hidden && row.dataset.instance === heading.dataset.instance);
    }
    byId("task-count").textContent = shown + " of " + rows.length + " episodes shown";
  }

  for (const f of filters) {
    f.addEventListener("input", applyFilters);
    f.addEventListener("change", applyFilters);
  }
  applyFilters();

  // ---- trajectory viewer ----
  const select = byId("episode-select");
  const image = byId("step-image");
  let episode = null;
  let frame = 0;

  data.episodes.forEach((ep, i) => {
    const option = el("option", ep.id + " — " + ep.outcome);
    option.value = String(i);
    select.appendChild(option);
  });

  function addField(parent, label, value, className) {
    if (value === null || value === undefined || value === "") return;
    parent.appendChild(el("div", label, "field-label"));
    const box = el("div", null, "field-value");
    box.appendChild(el("pre", asText(value), className));
    parent.appendChild(box);
  }

  function renderEpisode() {
    const info = byId("episode-info");
    info.replaceChildren();
    const dl = el("dl", null, "meta");
    const pairs = [
      ["Task", episode.task_id], ["Instruction", episode.instruction],
      ["Outcome", episode.outcome], ["Score", asText(episode.score)],
      ["Progress", percent(episode.progress)], ["Steps", asText(episode.steps)], ["End", episode.end],
      ["Error", episode.error_kind ? episode.error_kind + ": " + asText(episode.error) : ""],
    ];
    for (const [label, value] of pairs) {
      if (value === null || value === undefined || value === "") continue;
      dl.appendChild(el("dt", label));
      dl.appendChild(el("dd", value, label === "Outcome" ? "outcome outcome-" + value : null));
    }
    info.appendChild(dl);
    if (episode.traceback) {
      const details = el("details");
      details.appendChild(el("summary", "Traceback"));
      details.appendChild(el("pre", episode.traceback));
      info.appendChild(details);
    }
    if (episode.note) info.appendChild(el("p", episode.note, "note"));

    const body = byId("checks").querySelector("tbody");
    body.replaceChildren();
    for (const check of episode.checks) {
      const tr = el("tr");
      tr.appendChild(el("td", asText(check.field)));
      tr.appendChild(el("td", asText(check.expected)));
      tr.appendChild(el("td", asText(check.actual)));
      tr.appendChild(el("td", check.passed ? "yes" : "no", check.passed ? "passed-yes" : "passed-no"));
      body.appendChild(tr);
    }
    byId("no-checks").hidden = episode.checks.length > 0;

    const effects = byId("side-effects");
    effects.replaceChildren();
    for (const effect of episode.side_effects) effects.appendChild(el("li", effectText(effect)));
    byId("no-side-effects").hidden = episode.side_effects.length > 0;
  }

  function renderFrame() {
    const frames = episode.frames;
    const nav = frames.length > 0;
    byId("prev-step").disabled = !nav || frame === 0;
    byId("next-step").disabled = !nav || frame === frames.length - 1;
    byId("step-label").textContent = nav ? frames[frame].label + " (" + (frame + 1) + " of " + frames.length + ")" : "No steps recorded";
    const details = byId("step-details");
    details.replaceChildren();
    const current = nav ? frames[frame] : null;
    const src = current ? current.image : null;
    image.hidden = !src;
    byId("no-image").hidden = Boolean(src);
    if (src) {
      image.src = src;
      image.alt = current.label;
    } else {
      image.removeAttribute("src");
    }
    if (!current) return;
    addField(details, "Action", current.action, "step-action");
    addField(details, "Screen", current.screen);
    addField(details, "Error", current.error, "step-error");
    addField(details, "Thought", current.thought, "step-thought");
    addField(details, "Model response", current.response, "step-response");
    addField(details, "Reward", current.reward);
    addField(details, "Tokens", current.usage);
  }

  function showEpisode(index) {
    episode = data.episodes[index];
    frame = 0;
    select.value = String(index);
    renderEpisode();
    renderFrame();
  }

  function move(delta) {
    if (!episode) return;
    const next = frame + delta;
    if (next < 0 || next >= episode.frames.length) return;
    frame = next;
    renderFrame();
  }

  select.addEventListener("change", () => showEpisode(Number(select.value)));
  byId("prev-step").addEventListener("click", () => move(-1));
  byId("next-step").addEventListener("click", () => move(1));
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea") || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowLeft") move(-1);
    else if (event.key === "ArrowRight") move(1);
  });
  for (const button of document.querySelectorAll("#task-table button[data-episode]")) {
    button.addEventListener("click", () => {
      showEpisode(Number(button.dataset.episode));
      byId("viewer").scrollIntoView();
    });
  }
  if (data.episodes.length > 0) showEpisode(0);
  else byId("viewer-body").hidden = true;
})();
