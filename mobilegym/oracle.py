"""Scripted plans: a Driver that acts only through ``env.step`` and a registry of oracle/negative plans.

A suite registers plans in ``tasks/<suite>/plans.py``::

    from mobilegym.oracle import Driver, negative, plan

    @plan("settings.ToggleWifi")
    def toggle_wifi(d: Driver) -> None:
        d.open_app("Settings")
        d.tap(rid="network_entry")
        ...
        d.complete()

    @negative("settings.ToggleWifi", "flips airplane mode instead")
    def wrong_toggle(d: Driver) -> None:
        ...

The Driver finds nodes in the observation's accessibility tree (by resource-id, text or
content-desc), scrolls lists to reveal them, and taps their centres; it never touches state. It types
with ``type`` actions, never on the on-screen keyboard: its keys are not among the nodes it finds, and
when a node it needs is hidden while the keyboard is up it closes the keyboard (back) first.
For adversarial evaluation a Driver can show a plan other parameters, rewrite the answers and
text it gives, and checkpoint the episode before the answer and before the final action.
"""
from __future__ import annotations

import datetime as dt
import importlib
import pkgutil
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Mapping

from . import screen_text
from .actions import TERMINAL_TYPES
from .screen_text import Node
from .sim.fields import parse_date, parse_time
from .calendar_words import MONTHS as _MONTHS
from .sim.ime import IME_PACKAGE
from .sim.interruptions import DIALER_PACKAGE, PERMISSION_PACKAGE
from .sim.system_ui import SYSTEM_PACKAGE as SYSTEM_UI

# what the Driver taps to put an interruption away: (package, resource-id)
DISMISS = ((DIALER_PACKAGE, "decline_button"), (DIALER_PACKAGE, "end_call_button"),
           (PERMISSION_PACKAGE, "permission_deny_button"))
# an interruption's screen holds one of these (a cheap test before parsing the screen)
INTERRUPTION_MARKERS = (f'package="{DIALER_PACKAGE}"', f'package="{PERMISSION_PACKAGE}"', "expandableNotificationRow")

PlanFn = Callable[["Driver"], None]
AnswerFilter = Callable[[list[Any]], "list[Any] | None"]
"""Rewrites the values a plan answers (one per answer field); None skips the submission."""
TextFilter = Callable[["str | None", str], str]
"""Rewrites the text a plan types, given the field's resource-id (None when typing into the focus)."""
TapFilter = Callable[[Node, "list[Node]"], Node]
"""The node tapped instead of the one a plan taps, given the screen's nodes."""


class PlanError(RuntimeError):
    """A scripted plan could not go on (a node it needs is not on screen)."""


@dataclass(frozen=True)
class Plan:
    """A scripted action sequence for one task; ``expect_success`` is False for negative cases."""

    task_id: str
    name: str
    fn: PlanFn
    expect_success: bool


_PLANS: dict[str, list[Plan]] = {}


def _register(task_id: str, name: str, expect_success: bool) -> Callable[[PlanFn], PlanFn]:
    def add(fn: PlanFn) -> PlanFn:
        _PLANS.setdefault(task_id, []).append(Plan(task_id, name, fn, expect_success))
        return fn

    return add


def plan(task_id: str) -> Callable[[PlanFn], PlanFn]:
    """Register the oracle plan of a task: the judge must score it 1."""
    return _register(task_id, "oracle", True)


END_STATE = "end state: "  # the name prefix of a plan reaching another end state the goal accepts


def alternative(task_id: str, end_state: str) -> Callable[[PlanFn], PlanFn]:
    """Register a right solution reaching another end state the task's goal accepts (one of its
    ``end_states``, e.g. "deleted for good" beside "in Trash"): the judge must score it 1 too."""
    return _register(task_id, END_STATE + end_state, True)


def negative(task_id: str, name: str) -> Callable[[PlanFn], PlanFn]:
    """Register a realistic mistake for a task: the judge must score it 0."""
    return _register(task_id, name, False)


@lru_cache(maxsize=None)
def _load_suite_plans() -> None:
    import mobilegym.tasks as tasks

    for module in pkgutil.iter_modules(tasks.__path__):
        if module.ispkg:
            try:
                importlib.import_module(f"mobilegym.tasks.{module.name}.plans")
            except ModuleNotFoundError as exc:
                if exc.name != f"mobilegym.tasks.{module.name}.plans":
                    raise


def plans_for(task_id: str) -> list[Plan]:
    """Every registered plan (the oracle first, then other end states, then negatives) of a task."""
    _load_suite_plans()
    found = _PLANS.get(task_id, [])
    return sorted(found, key=lambda p: (not p.expect_success, p.name != "oracle"))


def all_plans() -> dict[str, list[Plan]]:
    """Task id -> its plans, for every suite."""
    _load_suite_plans()
    return {task_id: plans_for(task_id) for task_id in sorted(_PLANS)}


@dataclass(frozen=True)
class Checkpoint:
    """An episode frozen by a Driver (``checkpoints=True``), to fork other endings from it."""

    snapshot: Any
    obs: dict[str, Any]
    info: dict[str, Any]
    step: int

    @classmethod
    def take(cls, env: Any, obs: dict[str, Any], info: dict[str, Any], step: int) -> "Checkpoint":
        return cls(env.snapshot(), obs, info, step)

    def resume(self, env: Any, **options: Any) -> "Driver":
        """Put ``env`` back at this point and return a Driver (with ``options``) to go on from it."""
        unwrapped = env.unwrapped if hasattr(env, "unwrapped") else env
        return Driver(env, unwrapped.restore(self.snapshot), self.info, **options)


class Driver:
    """Drives an environment like a careful scripted agent, through ``env.step`` only.

    Options for adversarial runs: ``params`` replaces the parameters a plan sees (the judge still
    judges the episode's own); ``answer_filter``, ``text_filter`` and ``tap_filter`` rewrite what the
    plan answers, types and taps; ``checkpoints`` keeps a :class:`Checkpoint` before the first answer ("answer") and
    before the final action ("finish"). Whatever the filters do, ``answers`` and ``typed`` record
    what the plan itself gave.
    """

    MAX_SCROLLS = 8  # swipes each way while looking for a node
    MAX_LIST_SCROLLS = 60  # swipes while walking a whole list

    def __init__(self, env: Any, obs: dict[str, Any], info: dict[str, Any], *,
                 params: Mapping[str, Any] | None = None, answer_filter: AnswerFilter | None = None,
                 text_filter: TextFilter | None = None, tap_filter: TapFilter | None = None,
                 checkpoints: bool = False) -> None:
        self.env = env.unwrapped if hasattr(env, "unwrapped") else env
        self.outer = env
        self.obs = obs
        self.info = info
        self.reward = 0.0
        self.done = False
        self.trace: list[dict[str, Any]] = []
        self._params = dict(params) if params is not None else None
        self.answer_filter = answer_filter
        self.text_filter = text_filter
        self.tap_filter = tap_filter
        self.keep_checkpoints = checkpoints
        self.checkpoints: dict[str, Checkpoint] = {}
        self.answers: list[list[Any]] = []
        self.typed: list[tuple[str | None, str]] = []
        self.answered_at: int | None = None  # actions taken once the (last) answer was given
        self._parsed: tuple[str, list[Node]] = ("", [])  # the last screen's XML and its nodes

    # reading ---------------------------------------------------------------------
    @property
    def params(self) -> dict[str, Any]:
        """The parameters the plan works with: the episode's, unless the Driver was given others."""
        return self._params if self._params is not None else self.info["params"]

    @property
    def language(self) -> str:
        """The phone's language ("en" or "zh")."""
        return self.env.language

    def t(self, en: str, zh: str) -> str:
        """A label as the phone shows it in its language (a plan's counterpart of a screen's ``ctx.t``)."""
        return zh if self.language == "zh" else en

    @property
    def route(self) -> str:
        return self.env.device.current_route()

    def nodes(self) -> list[Node]:
        """The nodes on screen, but the keyboard's keys (parsed once per screen)."""
        xml = self.env.device.a11y_xml()
        if xml != self._parsed[0]:
            self._parsed = (xml, [n for n in screen_text.parse_nodes(xml) if n.package != IME_PACKAGE])
        return list(self._parsed[1])

    def keyboard_shown(self) -> bool:
        """Whether the on-screen keyboard is up."""
        return f'package="{IME_PACKAGE}"' in self.env.device.a11y_xml()

    def find(self, rid: str | None = None, text: str | None = None, desc: str | None = None,
             contains: str | None = None, index: int = 0) -> Node | None:
        """The ``index``-th node on screen matching every given criterion, or None."""
        matches = [n for n in self.nodes()
                   if (rid is None or n.short_id == rid)
                   and (text is None or n.text == text)
                   and (desc is None or n.desc == desc)
                   and (contains is None or contains in n.text or contains in n.desc)]
        return matches[index] if index < len(matches) else None

    def value_of(self, label: str) -> str:
        """The first non-empty text after the node whose text is ``label`` (a row's value under its title)."""
        nodes = self.nodes()
        for i, n in enumerate(nodes):
            if n.text == label:
                following = next((m.text for m in nodes[i + 1:] if m.text), None)
                if following is not None:
                    return following
        raise PlanError(f"no value after {label!r} on screen {self.route}")

    def texts(self, rid: str) -> list[str]:
        """Texts of every on-screen node with a resource-id."""
        return [n.text for n in self.nodes() if n.short_id == rid]

    # acting ------------------------------------------------------------------------
    def step(self, action: dict[str, Any]) -> None:
        """One env.step; remembers the observation, reward and info."""
        if self.done:
            raise PlanError(f"the episode already ended; cannot {action}")
        if action.get("type") in TERMINAL_TYPES:
            self._checkpoint("finish")
        self.obs, self.reward, terminated, truncated, self.info = self.outer.step(action)
        self.trace.append(action)
        self.done = terminated or truncated
        if not self.done:
            self._put_away_interruption()

    def _put_away_interruption(self) -> None:
        """Put away what came over the screen after the last step, as a careful user does before going on:
        decline a call, deny a permission request, swipe a heads-up notification up (each one step)."""
        xml = self.env.device.a11y_xml()
        if not any(marker in xml for marker in INTERRUPTION_MARKERS):
            return
        nodes = self.nodes()
        for node in nodes:
            if (node.package, node.short_id) in DISMISS:
                self.step({"type": "tap", **self._point(node)})
                return
        system = {n.short_id: n for n in reversed(nodes) if n.package == SYSTEM_UI}
        heads_up = system.get("expandableNotificationRow")
        if heads_up is not None and "notification_panel" not in system:  # a notification outside the shade
            point = self._point(heads_up)
            top = self.env.coords.from_device(heads_up.bounds[1], "y")
            self.step({"type": "swipe", **point, "x2": point["x"], "y2": top, "duration_ms": 300})

    def _checkpoint(self, name: str) -> None:
        if self.keep_checkpoints and name not in self.checkpoints:
            self.checkpoints[name] = Checkpoint.take(self.env, self.obs, self.info, len(self.trace))

    def _point(self, node: Node) -> dict[str, float]:
        x, y = node.center
        return {"x": self.env.coords.from_device(x, "x"), "y": self.env.coords.from_device(y, "y")}

    def reveal(self, **criteria: Any) -> Node:
        """Find a node, scrolling the main list down (then up) until it shows; when it is not in sight while
        the keyboard is up, close the keyboard first (the screen gets its room back)."""
        if self.keyboard_shown():
            node = self.find(**criteria)
            if node is None or not self._fully_visible(node):
                self.key("back")
        for direction in (1, -1):
            for _ in range(self.MAX_SCROLLS):
                node = self.find(**criteria)
                if node is not None and self._fully_visible(node):
                    return node
                if not self.scroll(direction):
                    break
        node = self.find(**criteria)
        if node is None:
            raise PlanError(f"no node {criteria} on screen {self.route}")
        return node

    def _fully_visible(self, node: Node) -> bool:
        """Inside every list it sits in, and not under a view floating over a list (a FAB, a dialog)."""
        lists = [n for n in self.nodes() if n.scrollable]
        if not all(not _inside(node.center, l.bounds) or _contains_box(l.bounds, node.bounds) for l in lists):
            return False
        return not any(_inside(node.center, box) and not _contains_box(box, node.bounds)
                       for box in _floating_boxes(self.env.device.a11y_xml()))

    def scroll(self, direction: int = 1) -> bool:
        """Swipe the last scrolling list on screen by half its height (1: further down the list, -1: back
        up); False when nothing moved (the end of the list, or no list)."""
        lists = [n for n in self.nodes() if n.scrollable]
        if not lists:
            return False
        x1, y1, x2, y2 = lists[-1].bounds
        before = self.env.device.a11y_xml()
        cx, top, bottom = (x1 + x2) // 2, y1 + (y2 - y1) // 4, y1 + 3 * (y2 - y1) // 4
        start, end = (bottom, top) if direction > 0 else (top, bottom)
        self.step({"type": "swipe", "x": self.env.coords.from_device(cx, "x"), "y": self.env.coords.from_device(start, "y"),
                   "x2": self.env.coords.from_device(cx, "x"), "y2": self.env.coords.from_device(end, "y"),
                   "duration_ms": 400})
        return self.env.device.a11y_xml() != before

    def scroll_to_top(self) -> None:
        """Scroll the main list back up to its start."""
        for _ in range(self.MAX_LIST_SCROLLS):
            if not self.scroll(-1):
                return

    def collect(self, rid: str, attr: str = "desc", whole: bool = False) -> list[str]:
        """The ``attr`` (desc or text) of every ``rid`` node down the screen's list, scrolling to its end, each value
        once, in order; ``whole``: from the top of the list, and back to the top after."""
        if whole:
            self.scroll_to_top()
        seen: list[str] = []
        for _ in range(self.MAX_LIST_SCROLLS):
            seen += [getattr(n, attr) for n in self.nodes() if n.short_id == rid and getattr(n, attr) not in seen]
            if not self.scroll(1):
                break
        if whole:
            self.scroll_to_top()
        return seen

    def tap(self, **criteria: Any) -> None:
        """Tap the centre of a node found by rid/text/desc/contains (scrolling to it)."""
        node = self.reveal(**criteria)
        if self.tap_filter is not None:
            node = self.tap_filter(node, self.nodes())
        self.step({"type": "tap", **self._point(node)})

    def long_press(self, **criteria: Any) -> None:
        self.step({"type": "long_press", **self._point(self.reveal(**criteria)), "duration_ms": 800})

    def type(self, text: str, clear: bool = True, **criteria: Any) -> None:
        """Focus a field (when criteria are given) and type into it, replacing its text by default."""
        point = self._point(self.reveal(**criteria)) if criteria else {}
        rid = criteria.get("rid")
        self.typed.append((rid, text))
        if self.text_filter is not None:
            text = self.text_filter(rid, text)
        self.step({"type": "type", "text": text, "clear": clear, **point})

    def drag_slider(self, fraction: float, **criteria: Any) -> None:
        """Drag a slider's knob to a fraction of its track."""
        node = self.reveal(**criteria)
        x1, y1, x2, y2 = node.bounds
        pad = round(10 * self.env.device.screen_size[0] / 360)
        x = x1 + pad + fraction * (x2 - x1 - 2 * pad)
        y = (y1 + y2) // 2
        self.step({"type": "drag", "x": self.env.coords.from_device(x1 + pad, "x"), "y": self.env.coords.from_device(y, "y"),
                   "x2": self.env.coords.from_device(min(x, x2 - 1), "x"), "y2": self.env.coords.from_device(y, "y")})

    def pick_date(self, day: dt.date, **criteria: Any) -> None:
        """Set a date field through its date picker: tap the field (criteria), page the months to ``day``
        (or, more than a year away, type it in the picker's text mode), tap the day and OK."""
        self.tap(**criteria)
        title = self.find(rid="month_navigation_fragment_toggle")
        if title is None:
            raise PlanError(f"tapping {criteria} opened no date picker on screen {self.route}")
        year, month = month_of(title.text)
        gap = (day.year - year) * 12 + day.month - month
        if abs(gap) > 12:
            self.tap(rid="mtrl_picker_header_toggle")
            self.step({"type": "type", "text": day.isoformat(), "clear": True,
                       **self._point(self.reveal(rid="mtrl_picker_text_input_date"))})
        else:
            for _ in range(abs(gap)):
                self.tap(rid="month_navigation_next" if gap > 0 else "month_navigation_previous")
            self.tap(rid="date_picker_day", text=str(day.day))
        self.tap(rid="button1")

    def pick_time(self, hour: int, minute: int, **criteria: Any) -> None:
        """Set a time field through its time picker: tap the field (criteria), AM/PM on a 12-hour phone, the
        hour and the minute on the dial, OK."""
        if not (0 <= hour <= 23 and 0 <= minute <= 59):
            raise PlanError(f"no such time of day: {hour}:{minute:02d}")
        self.tap(**criteria)
        if self.find(rid="radial_picker") is None:
            raise PlanError(f"tapping {criteria} opened no time picker on screen {self.route}")
        twelve = self.find(rid="am_label") is not None
        if twelve:
            self.tap(rid="pm_label" if hour >= 12 else "am_label")
            label = str(hour % 12 or 12)
        else:
            label = f"{hour:02d}" if hour % 12 == 0 else str(hour)
        self._tap_dial(label)
        self._tap_dial(self.t(f"{minute} minutes", f"{minute} 分钟"))
        self.tap(rid="button1")

    def _tap_dial(self, desc: str) -> None:
        """Tap the number or tick of the clock face named ``desc``."""
        dial = self.find(rid="radial_picker")
        node = next((n for n in self.nodes() if n.desc == desc and dial is not None and _inside(n.center, dial.bounds)),
                    None)
        if node is None:
            raise PlanError(f"no {desc!r} on the time picker's dial on screen {self.route}")
        self.step({"type": "tap", **self._point(node)})

    def key(self, name: str) -> None:
        self.step({"type": "key", "key": name})

    def open_app(self, app: str) -> None:
        self.step({"type": "open_app", "app": app})

    def open_home(self, app: str, rid: str | None = None) -> None:
        """Open an app and press Back until its first screen shows (the app resumes where it was left): the node
        ``rid`` on screen, or the route "/" without one."""
        self.open_app(app)
        for _ in range(self.MAX_SCROLLS):
            if (self.find(rid=rid) is not None) if rid else self.route == "/":
                return
            self.key("back")
        raise PlanError(f"{app}: no way back to its first screen from {self.route}")

    def wait(self, seconds: float) -> None:
        self.step({"type": "wait", "seconds": seconds})

    def complete(self, text: str | None = None) -> None:
        self.step({"type": "complete", **({"text": text} if text is not None else {})})

    def abort(self, text: str | None = None) -> None:
        self.step({"type": "abort", **({"text": text} if text is not None else {})})

    def submit_answer(self, values: list[Any]) -> None:
        """Give the answer: the AnswerSheet in grounded mode, the answer action in text mode.

        ``values`` has one entry per answer field; a list entry fills a repeatable field.
        """
        self.answers.append(list(values))
        self._checkpoint("answer")
        if self.answer_filter is not None:
            filtered = self.answer_filter(list(values))
            if filtered is None:
                return
            values = filtered
        self._give_answer(values)
        self.answered_at = len(self.trace)

    def _give_answer(self, values: list[Any]) -> None:
        if self.env.eval_mode == "text":
            flat = [", ".join(map(str, v)) if isinstance(v, list) else str(v) for v in values]
            self.step({"type": "answer", "text": ", ".join(flat)})
            return
        self.open_app("answer_sheet")
        for index, value in enumerate(values):
            entries = value if isinstance(value, list) else [value]
            for n, entry in enumerate(entries):
                option = self.find(rid=f"field_{index}_option", text=str(entry))
                if option is not None:
                    self.tap(rid=f"field_{index}_option", text=str(entry))
                    continue
                if n > 0:
                    self.tap(rid=f"field_{index}_add")
                field = self.reveal(rid=f"field_{index}_input", index=n)
                if field.cls == "android.widget.EditText":
                    self.type(str(entry), rid=f"field_{index}_input", index=n)
                else:
                    self._pick(entry, rid=f"field_{index}_input", index=n)
        self.tap(rid="submit")

    def _pick(self, value: Any, **criteria: Any) -> None:
        """Enter a date ("YYYY-MM-DD" or a date) or a time ("HH:MM" or a time) in a picker field."""
        if isinstance(value, dt.date) or parse_date(str(value)) is not None:
            self.pick_date(value if isinstance(value, dt.date) else parse_date(str(value)), **criteria)
            return
        hhmm = f"{value:%H:%M}" if isinstance(value, dt.time) else parse_time(str(value))
        if hhmm is None:
            raise PlanError(f"{value!r} is neither a date (YYYY-MM-DD) nor a time (HH:MM) for the picker field {criteria}")
        self.pick_time(int(hhmm[:2]), int(hhmm[3:]), **criteria)


def month_of(title: str) -> tuple[int, int]:
    """(year, month) of a date picker's month title: "March 2026" or "2026年3月"."""
    zh = re.fullmatch(r"(\d{4})年(\d{1,2})月", title)
    if zh is not None:
        return int(zh.group(1)), int(zh.group(2))
    name, year = title.split()
    return int(year), _MONTHS.index(name) + 1


def _floating_boxes(xml: str) -> list[tuple[int, int, int, int]]:
    """Bounds of clickable views drawn over a scrolling list: after it in document order, outside its subtree."""
    order = list(ET.fromstring(xml).iter("node"))
    boxes = []
    for i, element in enumerate(order):
        if element.get("scrollable") != "true":
            continue
        lx1, ly1, lx2, ly2 = _bounds(element)
        for other in order[i + sum(1 for _ in element.iter("node")):]:
            x1, y1, x2, y2 = _bounds(other)
            if other.get("clickable") == "true" and x1 < lx2 and lx1 < x2 and y1 < ly2 and ly1 < y2:
                boxes.append((x1, y1, x2, y2))
    return boxes


def _bounds(element: ET.Element) -> tuple[int, int, int, int]:
    x1, y1, x2, y2 = (int(v) for v in re.findall(r"-?\d+", element.get("bounds", "")))
    return x1, y1, x2, y2


def _inside(point: tuple[int, int], box: tuple[int, int, int, int]) -> bool:
    return box[0] <= point[0] < box[2] and box[1] <= point[1] < box[3]


def _contains_box(outer: tuple[int, int, int, int], inner: tuple[int, int, int, int]) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def run_plan(env: Any, task_id: str, the_plan: Plan, seed: int, **options: Any) -> tuple[float, dict[str, Any], Driver]:
    """Reset on a task, run a plan, finish with complete if the plan did not end the episode.

    ``options`` go to the :class:`Driver`. Returns (reward, last info, driver).
    """
    obs, info = env.reset(seed=seed, options={"task": task_id})
    driver = Driver(env, obs, info, **options)
    the_plan.fn(driver)
    if not driver.done:
        driver.complete()
    return driver.reward, driver.info, driver
