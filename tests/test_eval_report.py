"""The HTML report and PNG plots of `mobilegym eval`, rendered in real headless Chromium.

One browser session serves the module; each test loads the page afresh. A missing Chromium is a
failure, not a skip: scripts/setup.sh installs Debian's chromium and chromium-driver.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from mobilegym.eval.harness.plots import write_plots
from mobilegym.eval.harness.report import TEXT_LIMIT, ReportError, write_report

from .eval_fixtures import HOSTILE, ROWS, SUCCESS_TEXT, build_results

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = build_results(tmp_path_factory.mktemp("eval") / "run")
    write_plots(root)
    write_report(root)
    return root


@pytest.fixture
def page(browser: Any, results: Path) -> Any:
    """The report freshly loaded from file://; afterwards, the console must hold no error."""
    browser.get((results / "report.html").as_uri())
    yield browser
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, errors


def by_id(driver: Any, ident: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, ident)


def visible_rows(driver: Any) -> list[Any]:
    from selenium.webdriver.common.by import By

    return [row for row in driver.find_elements(By.CSS_SELECTOR, "#task-table tbody tr.episode") if row.is_displayed()]


def choose(driver: Any, ident: str, value: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(by_id(driver, ident)).select_by_value(value)


def press(driver: Any, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(key).perform()


def loaded(driver: Any, image: Any) -> bool:
    """Whether the image loads (waiting up to 10 s: a busy machine decodes slowly)."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        return WebDriverWait(driver, 10).until(lambda d: d.execute_script(
            "return arguments[0].complete && arguments[0].naturalWidth > 0", image))
    except TimeoutException:
        return False


# ---- in the browser ----

def test_header_shows_the_run_from_meta(page: Any) -> None:
    header = by_id(page, "run-meta").text
    assert "openai v1" in header and "qwen2.5-vl-7b" in header and "qwen25vl-2" in header
    assert "0123456789abcdef0123456789abcdef01234567 (with uncommitted changes)" in header
    assert "2026-01-02T03:04:05Z" in header
    assert page.title == "MobileGym evaluation — openai (qwen2.5-vl-7b)"


def test_summary_tables(page: Any) -> None:
    from selenium.webdriver.common.by import By

    assert by_id(page, "metric-success_rate").text == SUCCESS_TEXT
    assert by_id(page, "metric-pass_at_k").text == "pass@1 50.0% · pass@2 75.0% · pass@10 90.0%"
    assert by_id(page, "metric-errors").text == "2 (model_error 1, task_error 1)"
    assert by_id(page, "metric-tokens").text == "12,345 prompt · 678 completion"
    for group, names in {"suite": ["clock", "contacts"], "difficulty": ["L1", "L2"],
                         "objective": ["operation", "query"], "app": ["clock", "contacts"]}.items():
        rows = by_id(page, f"by-{group}").find_elements(By.CSS_SELECTOR, "tbody tr")
        assert [r.find_element(By.TAG_NAME, "th").text for r in rows] == names
    clock = by_id(page, "by-suite").find_elements(By.CSS_SELECTOR, "tbody tr")[0].text
    assert "66.7% (95% CI 20.8–93.9%)" in clock
    # a group without a success rate shows a dash, not a crash
    assert "–" in by_id(page, "by-app").find_elements(By.CSS_SELECTOR, "tbody tr")[1].text


def test_task_table_filters(page: Any) -> None:
    assert len(visible_rows(page)) == 6
    assert by_id(page, "task-count").text == "6 of 6 episodes shown"
    choose(page, "filter-suite", "clock")
    rows = visible_rows(page)
    assert len(rows) == 3 and all(r.get_attribute("data-suite") == "clock" for r in rows)
    assert by_id(page, "task-count").text == "3 of 6 episodes shown"
    choose(page, "filter-difficulty", "L2")
    assert [r.get_attribute("data-outcome") for r in visible_rows(page)] == ["success"]
    choose(page, "filter-suite", "")
    choose(page, "filter-difficulty", "")
    choose(page, "filter-outcome", "error")
    assert len(visible_rows(page)) == 2
    choose(page, "filter-outcome", "")
    by_id(page, "filter-text").send_keys("ALARM")  # case-insensitive, over ids and instructions
    assert len(visible_rows(page)) == 3
    by_id(page, "filter-text").send_keys(" for 7:30")
    assert [r.text.splitlines()[0] for r in visible_rows(page)] == ["clock.SetAlarm/s0-w0-r0"]
    by_id(page, "filter-text").clear()
    by_id(page, "filter-text").send_keys("no such episode")
    assert visible_rows(page) == [] and by_id(page, "task-count").text == "0 of 6 episodes shown"


def test_viewer_steps_through_screenshots(page: Any) -> None:
    from selenium.webdriver.common.keys import Keys

    image = by_id(page, "step-image")
    assert by_id(page, "step-label").text == "Step 0 (1 of 3)"
    assert image.get_attribute("src").endswith("/trajectories/clock.CountAlarms/s0-w0-r0/000.annotated.png")
    assert loaded(page, image)
    assert json.loads(by_id(page, "step-details").find_element("class name", "step-action").text) == \
        {"type": "open_app", "app": "Clock"}
    assert not by_id(page, "prev-step").is_enabled()
    by_id(page, "next-step").click()
    assert by_id(page, "step-label").text == "Step 1 (2 of 3)"
    assert image.get_attribute("src").endswith("/001.annotated.png") and loaded(page, image)
    assert '"type": "tap"' in by_id(page, "step-details").text
    press(page, Keys.ARROW_RIGHT)
    assert by_id(page, "step-label").text == "Final screen (3 of 3)"
    assert image.get_attribute("src").endswith("/final.png") and loaded(page, image)
    assert not by_id(page, "next-step").is_enabled()
    press(page, Keys.ARROW_RIGHT)  # past the end: stays
    assert by_id(page, "step-label").text == "Final screen (3 of 3)"
    press(page, Keys.ARROW_LEFT)
    press(page, Keys.ARROW_LEFT)
    assert by_id(page, "step-label").text == "Step 0 (1 of 3)"


def test_viewer_shows_the_judges_checks(page: Any) -> None:
    from selenium.webdriver.common.by import By

    rows = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
            for row in by_id(page, "checks").find_elements(By.CSS_SELECTOR, "tbody tr")]
    assert rows == [["answer", "3", "3", "yes"], ["alarms.unchanged", "true", "true", "yes"],
                    ["note", HOSTILE, HOSTILE, "yes"]]
    choose(page, "episode-select", "1")  # the failed CountAlarms run
    rows = by_id(page, "checks").find_elements(By.CSS_SELECTOR, "tbody tr")
    assert [c.text for c in rows[0].find_elements(By.TAG_NAME, "td")] == ["answer", "2", "5", "no"]
    assert by_id(page, "step-label").text == "Step 0 (1 of 4)"


def test_view_buttons_open_errored_episodes(page: Any) -> None:
    from selenium.webdriver.common.by import By

    buttons = page.find_elements(By.CSS_SELECTOR, "#task-table button[data-episode]")
    buttons[4].click()  # contacts.DeleteContact: a model error with one recorded step
    info = by_id(page, "episode-info")
    assert "model_error: the model server answered 500: " + HOSTILE in info.text
    info.find_element(By.TAG_NAME, "summary").click()
    assert "ModelError: the model server answered 500" in info.text  # the traceback from errors.jsonl
    assert by_id(page, "step-label").text == "Step 0 (1 of 1)"
    assert HOSTILE in by_id(page, "step-details").find_element(By.CLASS_NAME, "step-error").text
    assert by_id(page, "no-checks").is_displayed()
    buttons[5].click()  # contacts.EditContact: a task error, only in errors.jsonl, no trajectory
    assert "No trajectory was recorded" in by_id(page, "episode-info").text
    assert by_id(page, "step-label").text == "No steps recorded"
    assert not by_id(page, "step-image").is_displayed() and by_id(page, "no-image").is_displayed()
    assert not by_id(page, "prev-step").is_enabled() and not by_id(page, "next-step").is_enabled()
    buttons[3].click()  # contacts.AddContact: the judge's side effects from episode.json
    assert by_id(page, "side-effects").text == 'contacts[3]: deleted, "Ann" → null (harmful)'


def test_hostile_text_is_shown_as_text(page: Any) -> None:
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.common.by import By

    assert by_id(page, "step-details").find_element(By.CLASS_NAME, "step-response").text == HOSTILE
    by_id(page, "next-step").click()
    assert by_id(page, "step-details").find_element(By.CLASS_NAME, "step-thought").text == f"Thinking about {HOSTILE}"
    instructions = [e.text for e in page.find_elements(By.CSS_SELECTOR, "#task-table .instruction")]
    assert f"Add a contact named {HOSTILE}" in instructions
    by_id(page, "filter-text").send_keys("</script>")
    assert [r.get_attribute("data-suite") for r in visible_rows(page)] == ["contacts", "contacts"]
    scripts = page.find_elements(By.TAG_NAME, "script")
    assert [s.get_attribute("type") for s in scripts] == ["application/json", ""]
    assert page.find_elements(By.CSS_SELECTOR, "img[src='x']") == []
    with pytest.raises(NoAlertPresentException):
        page.switch_to.alert
    policy = page.find_element(By.CSS_SELECTOR, "meta[http-equiv='Content-Security-Policy']").get_attribute("content")
    assert "script-src 'sha256-" in policy and "default-src 'none'" in policy  # only the page's own script runs


def test_every_image_loads(page: Any) -> None:
    from selenium.webdriver.common.by import By

    images = page.find_elements(By.TAG_NAME, "img")
    sources = [i.get_attribute("src") for i in images]
    assert any(s.endswith("/plots/success_by_suite.png") for s in sources)
    assert any(s.endswith("/plots/success_by_difficulty.png") for s in sources)
    assert all(s.startswith("file://") for s in sources)
    assert all(loaded(page, i) for i in images), sources


def test_an_empty_run_renders(browser: Any, tmp_path: Path) -> None:
    root = build_results(tmp_path / "empty")
    for name in ("results.jsonl", "errors.jsonl"):
        (root / name).write_text("", encoding="utf-8")
    shutil.rmtree(root / "trajectories")
    (root / "summary.json").write_text(json.dumps({"episodes": 0, "errors": 0, "by": {}}), encoding="utf-8")
    browser.get(write_report(root).as_uri())
    assert by_id(browser, "task-count").text == "0 of 0 episodes shown"
    assert not by_id(browser, "viewer-body").is_displayed()
    assert by_id(browser, "metric-success_rate").text == "–"
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


# ---- the files ----

def embedded(report: Path) -> dict[str, Any]:
    text = report.read_text(encoding="utf-8")
    match = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', text, re.S)
    assert match is not None
    return json.loads(match.group(1))


def test_the_page_is_self_contained_and_escapes_markup(results: Path) -> None:
    text = (results / "report.html").read_text(encoding="utf-8")
    assert text.count("<script") == 2 and text.count("</script>") == 2
    assert "<script>alert(1)" not in text and 'onerror="alert(2)"' not in text
    assert "http://" not in text.replace("http://localhost:8000/v1", "") and "https://" not in text
    episodes = embedded(results / "report.html")["episodes"]
    assert [e["id"] for e in episodes] == sorted(r["episode_id"] for r in ROWS) + ["contacts.EditContact/s0-w0-r0"]
    assert episodes[0]["frames"][0]["response"] == HOSTILE


def test_same_results_give_the_same_bytes(results: Path, tmp_path: Path) -> None:
    """The report reads only the folder: rows in another order give the same page."""
    other = shutil.copytree(results, tmp_path / "copy")
    lines = (other / "results.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (other / "results.jsonl").write_text("".join(reversed(lines)), encoding="utf-8")
    assert write_report(other).read_bytes() == (results / "report.html").read_bytes()


def test_long_texts_are_clipped(tmp_path: Path) -> None:
    root = build_results(tmp_path / "run")
    steps = root / ROWS[0]["trajectory"] / "steps.jsonl"
    rows = [json.loads(line) for line in steps.read_text(encoding="utf-8").splitlines()]
    rows[0]["response"] = "x" * (TEXT_LIMIT + 500)
    steps.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    response = embedded(write_report(root))["episodes"][0]["frames"][0]["response"]
    assert response.startswith("x" * TEXT_LIMIT) and response.endswith("(500 more characters in steps.jsonl)")


def test_a_later_row_of_an_episode_replaces_an_earlier_one(tmp_path: Path) -> None:
    root = build_results(tmp_path / "run")
    rerun = {**ROWS[1], "success": True, "score": 1.0}
    with (root / "results.jsonl").open("a", encoding="utf-8") as f:
        f.write(json.dumps(rerun) + "\n")
    episodes = embedded(write_report(root))["episodes"]
    assert len(episodes) == 6 and episodes[1]["outcome"] == "success"


@pytest.mark.parametrize("damage, message", [
    (lambda root: (root / "meta.json").unlink(), r"meta\.json is missing"),
    (lambda root: (root / "summary.json").write_text("{", encoding="utf-8"), r"summary\.json is not valid JSON"),
    (lambda root: (root / "summary.json").write_text("[]", encoding="utf-8"), r"must each hold a JSON object"),
    (lambda root: (root / "results.jsonl").unlink(), r"results\.jsonl is missing"),
    (lambda root: (root / "results.jsonl").write_text('{"episode_id": "a", "task_id": "t"}\n[1]\n',
                                                       encoding="utf-8"), r"results\.jsonl:2 is not a JSON object"),
    (lambda root: (root / "errors.jsonl").write_text("\n{oops\n", encoding="utf-8"), r"errors\.jsonl:2 is not valid"),
    (lambda root: (root / "results.jsonl").write_text('{"task_id": "t"}\n', encoding="utf-8"), r"no 'episode_id'"),
    (lambda root: (root / "results.jsonl").write_text(
        json.dumps({**ROWS[0], "trajectory": "../../elsewhere"}) + "\n", encoding="utf-8"),
     r"trajectory '.*elsewhere' points outside the results folder"),
    (lambda root: (root / ROWS[0]["trajectory"] / "steps.jsonl").write_text(
        json.dumps({"step": 0, "screenshot": "../../../../../etc/passwd"}) + "\n", encoding="utf-8"),
     r"step 0 screenshot .* points outside the results folder"),
])
def test_a_damaged_folder_is_a_named_error(tmp_path: Path, damage: Any, message: str) -> None:
    root = build_results(tmp_path / "run")
    damage(root)
    with pytest.raises(ReportError, match=message):
        write_report(root)
    assert not (root / "report.html").exists()


def test_no_folder_is_a_named_error(tmp_path: Path) -> None:
    with pytest.raises(ReportError, match="does not exist"):
        write_report(tmp_path / "nowhere")
    with pytest.raises(ReportError, match=r"summary\.json is missing"):
        write_plots(tmp_path)


def test_a_missing_trajectory_folder_is_noted(tmp_path: Path) -> None:
    root = build_results(tmp_path / "run")
    shutil.rmtree(root / ROWS[2]["trajectory"])
    episodes = embedded(write_report(root))["episodes"]
    assert episodes[2]["frames"] == [] and "is missing" in episodes[2]["note"]


def test_plots_are_valid_and_deterministic(results: Path) -> None:
    first = write_plots(results)
    assert [p.relative_to(results).as_posix() for p in first] == ["plots/success_by_suite.png",
                                                                  "plots/success_by_difficulty.png"]
    data = [p.read_bytes() for p in first]
    for path in first:
        with Image.open(path) as image:
            image.verify()
            assert image.format == "PNG" and image.size[0] >= 400
    assert [p.read_bytes() for p in write_plots(results)] == data
    assert all(b"Software" not in d and b"Matplotlib" not in d for d in data)


def test_plots_need_per_group_results(tmp_path: Path) -> None:
    root = build_results(tmp_path / "run")
    (root / "summary.json").write_text(json.dumps({"episodes": 0}), encoding="utf-8")
    with pytest.raises(ReportError, match="has no 'by' object"):
        write_plots(root)
    (root / "summary.json").write_text(json.dumps({"episodes": 0, "by": {"suite": {}}}), encoding="utf-8")
    assert write_plots(root) == []


def test_report_assets_ship_in_the_wheel() -> None:
    """pyproject's package-data must cover the CSS and JS the report inlines."""
    tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11's tomllib")
    package_data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"]
    patterns = package_data.get("*", []) + package_data.get("mobilegym.eval.harness", [])
    package = REPO / "mobilegym" / "eval" / "harness"
    shipped = {path for pattern in patterns for path in package.glob(pattern)}  # globbed as setuptools does
    for asset in sorted((package / "report_assets").iterdir()):
        assert asset in shipped, f"{asset.relative_to(package)} is not in pyproject's package-data"


# ---- per task, repeats, where the configuration goes ----

def test_the_configuration_follows_the_summary_and_the_header_is_short(page: Any) -> None:
    from selenium.webdriver.common.by import By

    order = [s.get_attribute("id") for s in page.find_elements(By.CSS_SELECTOR, "body > section")]
    assert order.index("summary") < order.index("configuration") < order.index("tasks")
    assert len(by_id(page, "run-meta").find_elements(By.TAG_NAME, "dt")) <= 7
    agent = by_id(page, "agent-configuration")
    assert agent.get_attribute("open") is None  # folded
    agent.find_element(By.TAG_NAME, "summary").click()
    assert "base_url" in agent.text and "http://localhost:8000/v1" in agent.text
    assert "sample_n" in by_id(page, "run-configuration").get_attribute("textContent")


def test_repeats_are_grouped_under_their_instance(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    from mobilegym.eval.harness import evaluate

    out = tmp_path / "repeats"
    evaluate(agent="random", agent_options={"seed": 3}, tasks=["clock.CountAlarms", "clock.AlarmTime"], repeat_n=2,
             max_steps=2, out=str(out), trajectories=False)
    summary = json.loads((out / "summary.json").read_text())
    assert sorted(summary["by"]["task"]) == ["clock.AlarmTime", "clock.CountAlarms"]
    assert summary["by"]["task"]["clock.AlarmTime"]["episodes"] == 2
    browser.get((out / "report.html").as_uri())
    body = by_id(browser, "task-table").find_elements(By.CSS_SELECTOR, "tbody tr")
    kinds = [row.get_attribute("class") for row in body]
    assert kinds == ["instance", "episode repeat", "episode repeat"] * 2
    assert re.fullmatch(r"clock\.AlarmTime, seed 0, world \d+: [0-2] of 2 repeats succeeded", body[0].text)
    rows = by_id(browser, "by-task").find_elements(By.CSS_SELECTOR, "tbody tr")
    assert [r.find_element(By.TAG_NAME, "th").text for r in rows] == ["clock.AlarmTime", "clock.CountAlarms"]
    by_id(browser, "filter-text").send_keys("countalarms")
    shown = [row.get_attribute("class") for row in body if row.is_displayed()]
    assert shown == ["instance", "episode repeat", "episode repeat"]


def test_a_long_swipe_caption_wraps_inside_the_screenshot() -> None:
    import numpy as np
    from PIL import ImageDraw

    from mobilegym.eval.harness.trajectory import _caption, annotate, wrap_caption
    from mobilegym.sim.ui.fonts import font, font_path

    action = {"type": "swipe", "x": 540, "y": 1794, "x2": 540, "y2": 598, "duration_ms": 300}
    caption = _caption(action)
    image = annotate(np.full((600, 270, 3), 200, np.uint8), action, (1080, 2400))
    face = font(font_path(caption, False), max(12, image.width // 24))
    draw = ImageDraw.Draw(image)
    lines = wrap_caption(caption, lambda text: draw.textlength(text, font=face), image.width - 11)
    assert len(lines) >= 2 and " ".join(lines) == caption
    assert all(draw.textlength(line, font=face) <= image.width - 11 for line in lines)
    assert wrap_caption("a" * 30, len, 10) == ["a" * 10] * 3 and wrap_caption("", len, 10) == [""]


def test_group_tables_fit_a_1400_pixel_window(page: Any) -> None:
    page.set_window_size(1400, 1000)
    try:
        for group in ("suite", "difficulty", "objective", "app"):
            wide = page.execute_script(
                "const box = document.getElementById(arguments[0]).parentElement;"
                "return [box.scrollWidth, box.clientWidth];", f"by-{group}")
            assert wide[0] <= wide[1], (group, wide)
    finally:
        page.set_window_size(1280, 1024)
