"""The simulated phone: world document, navigation, input dispatch, rendering and the a11y tree."""
from __future__ import annotations

import copy
import marshal
import random
from urllib.parse import parse_qsl
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from ..jsoncopy import copy_doc
from ..device.base import CAP_FILES, CAP_SHELL, CAP_SNAPSHOT, CAP_STATE, WORLDS, UnsupportedCapability
from . import ui
from .ui.a11y import TreeExporter
from .app import installed_apps, route_string
from .clock import DEFAULT_START_MS, from_ms
from .nav import LAUNCHER, Navigator
from .ui.render import Canvas
from .system_ui import NAV_H, STATUS_H, Frame, compose
from .state import apply_patch
from .vfs import ENOENT, VfsError, VirtualFS
from . import extensions
from .worldgen import world_image

DP_WIDTH = 360.0
KEYS = ("back", "home", "recent", "enter", "delete")
FLING_MS = 200  # swipes faster than this fling: the list travels twice the finger's distance
MIN_SCREEN = (200, 300)
MAX_SCREEN = 4096  # pixels per side (a 4096 x 4096 frame is 48 MiB)
MAX_TICK_MS = 3_600_000
MAX_WAIT_S = 10 * 365 * 24 * 3600.0


class AppError(RuntimeError):
    """An app failed while handling an input or building its screen. The phone was put back as it was
    before the input (navigation and the state of the app on screen)."""


class ScreenError(ValueError):
    """A screen cannot be shown, e.g. a route whose id names nothing (``/alarm/edit?id=bogus``); the phone
    is left as it was."""


def _int_option(name: str, value: Any, lo: int, hi: int) -> int:
    """``value`` as an int in [lo, hi] (ints and integral floats; never bools), or a ValueError naming it."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be an integer in [{lo}, {hi}], got {value!r}")
    if isinstance(value, (float, np.floating)) and not float(value).is_integer():
        raise ValueError(f"{name} must be an integer in [{lo}, {hi}], got {value!r}")
    if not lo <= value <= hi:
        raise ValueError(f"{name} must be an integer in [{lo}, {hi}], got {value!r}")
    return int(value)


def _bool_option(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _apps_option(apps: Any) -> list[str] | None:
    """None (every app) or a list of app ids; a lone string is refused rather than read letter by letter."""
    if apps is None:
        return None
    if isinstance(apps, (str, bytes)) or not hasattr(apps, "__iter__"):
        raise ValueError(f"apps must be a list of app ids such as ['clock', 'settings'], got {apps!r}")
    ids = list(apps)
    bad = [a for a in ids if not isinstance(a, str)]
    if bad:
        raise ValueError(f"apps must be a list of app ids (strings), got {bad[0]!r} in {apps!r}")
    return list(dict.fromkeys(ids))


@dataclass(frozen=True)
class PhoneSnapshot:
    """Everything needed to put the phone back exactly as it was (state and navigation)."""

    doc: dict[str, Any]
    files: dict[str, Any]  # path -> vfs Node


class Phone:
    """An in-process Android-like phone. Implements the Device protocol.

    Screens are a pure function of ``doc`` (``{"os": ..., "apps": ...}``); every input
    advances the simulated clock by ``tick_ms``.
    """

    capabilities = frozenset({CAP_STATE, CAP_SNAPSHOT, CAP_FILES, CAP_SHELL})

    def __init__(
        self,
        width: int = 1080,
        height: int = 2400,
        *,
        render_scale: float = 1.0,
        language: str = "en",
        tick_ms: int = 1000,
        shuffle_launcher: bool = False,
        apps: Sequence[str] | None = None,
        world: str = "generated",
    ) -> None:
        if world not in WORLDS:
            raise ValueError(f"world must be one of {WORLDS}, got {world!r}")
        width = _int_option("screen width", width, MIN_SCREEN[0], MAX_SCREEN)
        height = _int_option("screen height", height, MIN_SCREEN[1], MAX_SCREEN)
        if (isinstance(render_scale, (bool, np.bool_)) or not isinstance(render_scale, (int, float, np.number))
                or not 0 < render_scale <= 1):
            raise ValueError(f"render_scale must be in (0, 1], got {render_scale!r}")
        if language not in ("en", "zh"):
            raise ValueError(f"language must be 'en' or 'zh', got {language!r}")
        tick_ms = _int_option("tick_ms", tick_ms, 0, MAX_TICK_MS)
        shuffle_launcher = _bool_option("shuffle_launcher", shuffle_launcher)
        apps = _apps_option(apps)
        self.width, self.height = width, height
        self.density = width / DP_WIDTH
        self.size_dp = (DP_WIDTH, height / self.density)
        self.render_scale = render_scale
        self.render_size = (max(1, round(width * render_scale)), max(1, round(height * render_scale)))
        self.language = language
        self.tick_ms = tick_ms
        self.shuffle_launcher = shuffle_launcher
        self.world = world
        self.world_seed: int | None = None  # the generated world on the phone (None: the canonical one)
        self.apps = installed_apps(apps)
        # marshal format 2 (no back-references): equal states give equal bytes, see _fresh_apps
        self._defaults = {app_id: marshal.dumps(app.defaults(), 2) for app_id, app in self.apps.items()}
        self._loaded_from: dict[str, bytes] = {}  # the blob each app's state in the document was loaded from
        self.nav = Navigator(self)
        self.files: VirtualFS
        self._shell: Any = None
        self.doc: dict[str, Any] = {}
        self._frame: Frame | None = None
        self._pixels: tuple[list[tuple], np.ndarray] | None = None
        self._saved: tuple[bytes, str | None, Any] | None = None  # what _input restores if the input fails
        self.reset_state()

    def __getstate__(self) -> dict[str, Any]:
        # the laid-out frame holds the screens' handler closures and the shell its session: both are
        # rebuilt on demand, so pickle, deepcopy and process pools see only data
        state = self.__dict__.copy()
        state.update(_frame=None, _pixels=None, _shell=None)
        return state

    # Device: state -------------------------------------------------------------
    @property
    def screen_size(self) -> tuple[int, int]:
        return (self.width, self.height)

    def reset_state(self, seed: int | None = None) -> None:
        """The world of ``seed`` (generated once, then cached; the canonical world when the phone was made
        with ``world="canonical"`` or no seed is given), its clock at the world's start, the home screen."""
        order = sorted(self.apps, key=lambda a: self.apps[a].label)
        if self.shuffle_launcher and seed is not None:
            random.Random(seed).shuffle(order)
        if self.world == "canonical" or seed is None:
            self.world_seed, start_ms, blobs = None, DEFAULT_START_MS, self._defaults
        else:
            image = world_image(int(seed), self.language, tuple(self.apps))
            self.world_seed, start_ms, blobs = image.seed, image.time_ms, image.apps
        self.doc = {
            "os": {
                "time_ms": start_ms, "language": self.language, "foreground": LAUNCHER, "route": "/",
                "stacks": {}, "recents": [], "overlay": None, "focus": None, "toast": None, "seq": 100,
                "launcher": {"order": order},
            },
            "apps": self._fresh_apps(blobs),
        }
        self.files = VirtualFS(clock=self.time_ms)
        self._shell = None
        self._changed()

    def _fresh_apps(self, blobs: dict[str, bytes]) -> dict[str, Any]:
        """Every app's state loaded from its marshal bytes. An app whose state in the current document was
        loaded from the same bytes (the same world again) and still marshals to them keeps that object (an
        episode touches few apps: no reload, no free); another world's data is loaded without comparing."""
        current = self.doc.get("apps", {})
        out = {}
        for app_id, blob in blobs.items():
            state = current.get(app_id)
            same = state is not None and self._loaded_from.get(app_id) is blob and _marshal_v2(state) == blob
            out[app_id] = state if same else marshal.loads(blob)
        self._loaded_from = dict(blobs)
        return out

    def get_state(self) -> dict[str, Any]:
        return copy_doc(self.doc)

    def peek_state(self) -> dict[str, Any]:
        """The live world document, not a copy: read it, never change it (cheap per-step judging)."""
        return self.doc

    def view_state(self) -> dict[str, tuple[str, ...]]:
        """Per app, the state paths its declaration calls view state rather than user data (the judge
        reports their changes without failing the task)."""
        return {app_id: app.view_state for app_id, app in self.apps.items() if app.view_state}

    def set_state(self, patch: dict[str, Any]) -> None:
        unknown = set(patch) - {"os", "apps"}
        if unknown:
            raise ValueError(f"state patch keys must be 'os' or 'apps', got {sorted(unknown)}")
        trial = copy_doc(self.doc)
        apply_patch(trial, patch)
        self.doc = trial
        self._changed()

    def snapshot(self) -> PhoneSnapshot:
        """Freeze the whole phone, e.g. to fork grouped rollouts from one state."""
        return PhoneSnapshot(copy_doc(self.doc), copy.deepcopy(self.files.nodes))

    def restore(self, snapshot: PhoneSnapshot) -> None:
        """Return to a snapshot taken with :meth:`snapshot`."""
        self.doc = copy_doc(snapshot.doc)
        with self.files.lock:
            self.files.nodes = copy.deepcopy(snapshot.files)
        self._changed()

    def time_ms(self) -> int:
        return self.doc["os"]["time_ms"]

    def current_app(self) -> str:
        return self.doc["os"]["foreground"]

    def current_route(self) -> str:
        return self.doc["os"]["route"]

    def close(self) -> None:
        self._frame = None
        self._pixels = None

    # Device: observation -------------------------------------------------------
    def frame(self) -> Frame:
        """The current laid-out screen (cached until something changes)."""
        if self._frame is None:
            self._frame = compose(self)
        return self._frame

    def screenshot(self) -> np.ndarray:
        items = self.frame().items()
        if self._pixels is None or self._pixels[0] != items:
            canvas = Canvas(*self.render_size, self.density * self.render_scale, self.frame().env.theme.background)
            canvas.draw(items)
            self._pixels = (items, canvas.pixels())
        return self._pixels[1].copy()

    def a11y_xml(self) -> str:
        frame = self.frame()
        exporter = TreeExporter(frame.env, self.density, (0, 0, self.width, self.height))
        return exporter.export(frame.windows)

    # Device: input -------------------------------------------------------------
    def tap(self, x: int, y: int) -> None:
        point = self._dp(x, y)
        self._input(lambda: self._tap(*point))

    def double_tap(self, x: int, y: int) -> None:
        self.tap(x, y)
        self.tap(x, y)

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        point = self._dp(x, y)

        def press() -> None:
            target = self._target(*point, lambda v: v.on_long_click is not None)
            if target is not None and target.on_long_click is not None:
                self._handler()
                target.on_long_click()

        self._input(press)

    def swipe(self, x: int, y: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        self._dp(x, y), self._dp(x2, y2)
        self._input(lambda: self._scroll(x, y, x2, y2, 2.0 if duration_ms < FLING_MS else 1.0))

    def drag(self, x: int, y: int, x2: int, y2: int) -> None:
        self._dp(x, y), self._dp(x2, y2)
        self._input(lambda: self._scroll(x, y, x2, y2, 1.0))

    def type_text(self, text: str, clear: bool = False) -> None:
        if not isinstance(text, str):
            raise ValueError(f"text must be a string, got {type(text).__name__}")

        def type_into() -> None:
            field = self._focused_field()
            if field is not None:
                self._handler()
                field.type(text, clear)

        self._input(type_into)

    def key(self, name: str) -> None:
        if name not in KEYS:
            raise ValueError(f"unknown key {name!r}; keys: {', '.join(KEYS)}")
        self._input(getattr(self, f"_key_{name}"))

    def open_app(self, app: str) -> None:
        self.nav.resolve_app(app)
        self._input(lambda: self.nav.open(app))

    def launch(self, app: str, route: str | None = None) -> None:
        """Open an app directly at a screen, e.g. ``launch("clock", "/alarm/edit?id=alarm_1")``.

        The screen is built before the launch counts: a route the app cannot show (an unknown path, or
        an id that names nothing) raises :class:`ScreenError` and leaves the phone as it was."""
        target = self.nav.resolve_app(app)
        if route is not None and not isinstance(route, str):
            raise ScreenError(f"route must be a string such as '/alarm/edit?id=alarm_1', got {route!r}")
        path, _, query = (route or target.home).partition("?")
        params = dict(parse_qsl(query))
        if path not in target.screens:
            raise ScreenError(f"app {target.id!r} has no screen {path!r}; screens: {sorted(target.screens)}")

        def open_screen() -> None:
            self.nav.open(target.id)
            if path != self.nav.current_entry()["path"] or params:
                self.nav.push(target.id, path, params)

        self._input(open_screen, failure=lambda exc: ScreenError(
            f"app {target.id!r} cannot show {route_string(path, params)!r}: {_describe(exc)}"))

    def pull(self, path: str) -> bytes:
        """A file's bytes from the phone's virtual storage (FileNotFoundError if absent)."""
        try:
            return self.files.read(path)
        except VfsError as exc:
            if exc.errno == ENOENT:
                raise FileNotFoundError(ENOENT, "No such file or directory", path) from None
            raise

    def push(self, path: str, data: bytes) -> None:
        """Write a file to the phone's virtual storage, creating parent folders."""
        self.files.write(path, data, make_parents=True)

    def shell(self, command: str) -> str:
        """Run an Android shell command line (the subset adbd serves) and return its output.

        The shell is injected (``extensions.shell_factory``, installed by ``import mobilegym``):
        it lives in mobilegym.adbd, which the simulator does not import."""
        if self._shell is None:
            if extensions.shell_factory is None:
                raise UnsupportedCapability("no in-process shell is installed (import mobilegym installs it)")
            self._shell = extensions.shell_factory(self)
        return self._shell.run(command).output.decode("utf-8", "replace")

    def wait(self, seconds: float) -> None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float, np.integer, np.floating)):
            raise ValueError(f"seconds must be a number of seconds, got {seconds!r}")
        if seconds < 0:
            raise ValueError(f"cannot wait a negative time ({seconds} s)")
        if not seconds <= MAX_WAIT_S:  # NaN too
            raise ValueError(f"seconds must be at most {MAX_WAIT_S:g} (ten years), got {seconds!r}")
        self.doc["os"]["time_ms"] += round(seconds * 1000)
        self._changed()

    # internals -----------------------------------------------------------------
    def _changed(self) -> None:
        self._frame = None

    def _dp(self, x: float, y: float) -> tuple[float, float]:
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ValueError(f"point ({x}, {y}) is outside the {self.width}x{self.height} screen")
        return x / self.density, y / self.density

    def _input(self, action: Callable[[], None], failure: Callable[[BaseException], Exception] | None = None) -> None:
        """Run one input against the current screen, let the clock tick, and build the next screen.

        It is all or nothing: when the input's handler or the next screen fails, the phone is put back
        as it was (navigation, and the app on screen if a handler ran: see :meth:`_handler`) and
        :class:`AppError` (or ``failure(exc)``) is raised. The saving is cheap: the small ``os`` part
        of the document is serialised every input, an app's state only when one of its handlers runs.
        """
        if self._saved is not None:  # an input from inside an input's handler: part of that one (one tick)
            action()
            return
        try:
            self.frame()
        except Exception as exc:
            raise AppError(f"{self.current_app()} {self.current_route()}: the screen cannot be built: "
                           f"{_describe(exc)}") from exc
        os_state = self.doc["os"]
        self._saved = (_freeze(os_state), None, None)
        try:
            os_state["toast"] = None
            action()
            self.doc["os"]["time_ms"] += self.tick_ms
            self._changed()
            self.frame()
        except Exception as exc:
            where = f"{self.current_app()} {self.current_route()}"
            self._rollback()
            if failure is not None:
                raise failure(exc) from exc
            raise AppError(f"{where}: {_describe(exc)} (the phone was put back as it was before the input)") from exc
        finally:
            self._saved = None

    def _handler(self) -> None:
        """Called before an app's handler runs: saves the foreground app's state (once per input)."""
        saved = self._saved
        if saved is not None and saved[1] is None:
            app_id = self.doc["os"]["foreground"]
            state = self.doc["apps"].get(app_id)
            if state is not None:
                self._saved = (saved[0], app_id, _freeze(state))

    def _rollback(self) -> None:
        saved = self._saved
        if saved is not None:
            self.doc["os"] = _thaw(saved[0])
            if saved[1] is not None:
                self.doc["apps"][saved[1]] = _thaw(saved[2])
        self._changed()

    def _target(self, x: float, y: float, want: Callable[[ui.View], bool]) -> ui.View | None:
        """The deepest view under (x, y) that ``want`` accepts, honouring modal dialogs."""
        frame = self.frame()
        if y < STATUS_H:
            return None
        if y >= self.size_dp[1] - NAV_H:
            return _deepest(frame.nav, x, y, want)
        dialog = frame.content.dialog
        if dialog is not None:
            if _contains(dialog.frame, x, y):
                return _deepest(dialog, x, y, want)
            return _Dismiss(dialog.on_dismiss) if dialog.on_dismiss is not None else None
        return _deepest(frame.content, x, y, want)

    def _tap(self, x: float, y: float) -> None:
        target = self._target(x, y, lambda v: v.on_click is not None)
        if target is None:
            return
        os_state = self.doc["os"]
        if isinstance(target, ui.TextField):
            os_state["focus"] = target.focus_key
            return
        if y >= self.size_dp[1] - NAV_H:  # a navigation-bar button: exactly its key (see shell._nav_bar)
            target.on_click()
            return
        os_state["focus"] = None
        self._handler()
        if isinstance(target, ui.Slider):
            target.on_change(target.value_at(x))
        elif target.on_click is not None:
            target.on_click()

    def _scroll(self, x: int, y: int, x2: int, y2: int, factor: float) -> None:
        (sx, sy), (ex, ey) = self._dp(x, y), self._dp(x2, y2)
        target = self._target(sx, sy, lambda v: isinstance(v, ui.Slider) or (isinstance(v, ui.ScrollList) and v.scrollable))
        if isinstance(target, ui.Slider):
            self._handler()
            target.on_change(target.value_at(ex))
        elif isinstance(target, ui.ScrollList):
            offset = self.frame().env.scroll.get(target.rid or "", 0.0) + (sy - ey) * factor
            self._scroll_store()[target.rid or ""] = min(target.max_offset(), max(0.0, offset))

    def _scroll_store(self) -> dict[str, float]:
        entry = self.nav.current_entry()
        holder = entry["local"] if entry is not None else self.doc["os"]["launcher"]
        return holder.setdefault("scroll", {})

    def _focused_field(self) -> ui.TextField | None:
        focus = self.doc["os"]["focus"]
        if focus is None:
            return None
        for view in self.frame().content.walk():
            if isinstance(view, ui.TextField) and view.focus_key == focus:
                return view
        return None

    def _key_back(self) -> None:
        dialog = self.frame().content.dialog
        if self.doc["os"]["focus"] is not None:
            self.doc["os"]["focus"] = None
        elif dialog is not None and dialog.on_dismiss is not None:
            self._handler()
            dialog.on_dismiss()
        else:
            self.nav.back()

    def _key_home(self) -> None:
        self.nav.home()

    def _key_recent(self) -> None:
        self.nav.toggle_recents()

    def _key_enter(self) -> None:
        field = self._focused_field()
        if field is not None:
            self._handler()
        if field is not None and field.on_submit is not None:
            field.on_submit()
        elif field is not None and field.lines > 1:
            field.type("\n")

    def _key_delete(self) -> None:
        field = self._focused_field()
        if field is not None:
            self._handler()
            field.on_change(field.value[:-1])


def _freeze(value: Any) -> Any:
    """A copy of a JSON-like value to put back later: its marshal bytes (fast, C), else a deep copy."""
    try:
        return marshal.dumps(value)
    except ValueError:
        return _Copy(copy.deepcopy(value))


def _thaw(frozen: Any) -> Any:
    return frozen.value if isinstance(frozen, _Copy) else marshal.loads(frozen)


@dataclass(frozen=True)
class _Copy:
    value: Any


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _marshal_v2(value: Any) -> bytes | None:
    try:
        return marshal.dumps(value, 2)
    except ValueError:
        return None


def _contains(frame: tuple[float, float, float, float], x: float, y: float) -> bool:
    fx, fy, fw, fh = frame
    return fx <= x < fx + fw and fy <= y < fy + fh


def _deepest(view: ui.View, x: float, y: float, want: Callable[[ui.View], bool]) -> ui.View | None:
    if not _contains(view.frame, x, y):
        return None
    children = view.visible_children() if isinstance(view, ui.ScrollList) else view.children
    for child in reversed(children):
        if child is getattr(view, "dialog", None):
            continue
        found = _deepest(child, x, y, want)
        if found is not None:
            return found
    return view if want(view) else None


class _Dismiss(ui.View):
    """A tap outside a dialog: dismisses it."""

    def __init__(self, on_dismiss: Callable[[], None]) -> None:
        super().__init__(on_click=on_dismiss)
