"""Shared fixtures, and the tables of the adversary and false-negative suites after the run."""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

import pytest

from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone

from .uitools import CORE_APPS

if TYPE_CHECKING:
    from mobilegym.eval import Runner, Tally

SUITE_TALLIES = pytest.StashKey[dict[str, "Tally"]]()


CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Chromium under selenium, for the pages the project writes (the eval report, the docs site)."""
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    if missing:
        pytest.fail(f"the HTML tests need headless Chromium: {', '.join(missing)} missing "
                    "(install Debian's chromium and chromium-driver, as scripts/setup.sh does)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1024"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    yield driver
    driver.quit()


@pytest.fixture
def phone() -> Phone:
    return SimDevice(apps=CORE_APPS)


@pytest.fixture(scope="session")
def suite_runner() -> Iterator[Runner]:
    """Environments and oracle runs shared by the adversary and false-negative suites."""
    from mobilegym.eval import Runner

    runner = Runner()
    yield runner
    runner.close()


@pytest.fixture(scope="session")
def suite_tallies(request: pytest.FixtureRequest) -> dict[str, Tally]:
    """Suite key -> its tally, printed by pytest_terminal_summary."""
    return request.config.stash.setdefault(SUITE_TALLIES, {})


def _suite_tally(suite_tallies: dict[str, Tally], key: str, name: str, must_pay: bool) -> Tally:
    """The session's tally of a suite played on the case matrix's seeds."""
    from mobilegym.eval import Tally

    from .suites import SEEDS

    return suite_tallies.setdefault(key, Tally(f"{name} (seeds {SEEDS[0]}-{SEEDS[-1]})", must_pay))


@pytest.fixture(scope="session")
def adversary_tally(suite_tallies: dict[str, Tally]) -> Tally:
    return _suite_tally(suite_tallies, "adversaries", "Adversary suite", False)


@pytest.fixture(scope="session")
def phrasing_tally(suite_tallies: dict[str, Tally]) -> Tally:
    return _suite_tally(suite_tallies, "false negatives", "False-negative suite", True)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """On a pytest-xdist worker, hand the suites' tallies to the controller (see pytest_testnodedown)."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        tallies = session.config.stash.get(SUITE_TALLIES, {})
        output["suite_tallies"] = json.dumps({key: tally.to_dict() for key, tally in tallies.items()})


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object, error: object) -> None:
    """On the pytest-xdist controller, merge a finished worker's tallies into this session's."""
    from mobilegym.eval import Tally

    received = json.loads(getattr(node, "workeroutput", {}).get("suite_tallies", "{}"))
    tallies = node.config.stash.setdefault(SUITE_TALLIES, {})  # type: ignore[attr-defined]
    for key, data in received.items():
        tally = Tally.from_dict(data)
        if key in tallies:
            tallies[key].merge(tally)
        else:
            tallies[key] = tally


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config) -> None:
    """Each suite's per-adversary (or per-phrasing) table, before pytest's own summary line."""
    for tally in config.stash.get(SUITE_TALLIES, {}).values():
        terminalreporter.write_sep("-", tally.title)
        terminalreporter.write_line(tally.table())
