"""The simulated phone, a thin facade implementing the Device protocol over the world document (world.py),
navigation (nav.py), input dispatch (input.py), the window stack (windows.py) and a frame cache."""
from __future__ import annotations

import copy
from urllib.parse import parse_qsl
from typing import Any, Callable, Sequence

import numpy as np

from ..jsoncopy import copy_doc
from ..languages import check_language
from ..app_states import AppStates
from .app import installed_apps, route_string
from .strings import system_text
from .input import KEYS, Input
from .nav import Navigator
from .ui.a11y import TreeExporter
from .vfs import ENOENT, VfsError, VirtualFS
from .frame_cache import FrameCache
from .windows import Frame, compose
from .world import PhoneSnapshot, WorldDoc
from .worlds import WORLDS

DP_WIDTH = 360.0
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


class Phone:
    """An in-process Android-like phone (:class:`mobilegym.device.sim.SimDevice` makes it a Device).

    Screens are a pure function of ``doc`` (``{"os": ..., "apps": ...}``); every input
    advances the simulated clock by ``tick_ms``.
    """

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
        check_language(language)
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
        self.apps = installed_apps(apps)
        self.world_doc = WorldDoc(self.apps, language, world, shuffle_launcher)
        self.nav = Navigator(self)
        self.input = Input(self)
        self.frame_cache = FrameCache()
        self.reset_state()

    def __getstate__(self) -> dict[str, Any]:
        # the laid-out frame holds the screens' handler closures: it is rebuilt on demand, so pickle,
        # deepcopy and process pools see only data
        state = self.__dict__.copy()
        state.update(frame_cache=FrameCache(self.frame_cache.reuse))
        return state

    # Device: state -------------------------------------------------------------
    @property
    def screen_size(self) -> tuple[int, int]:
        return (self.width, self.height)

    def resize(self, width: int, height: int) -> None:
        """Show the screens at another size in pixels (what `wm size WxH` does): the width stays
        360 dp, so the density follows the width and the height in dp follows the aspect ratio."""
        width = _int_option("screen width", width, MIN_SCREEN[0], MAX_SCREEN)
        height = _int_option("screen height", height, MIN_SCREEN[1], MAX_SCREEN)
        self.width, self.height = width, height
        self.density = width / DP_WIDTH
        self.size_dp = (DP_WIDTH, height / self.density)
        self.render_size = (max(1, round(width * self.render_scale)), max(1, round(height * self.render_scale)))
        self._changed()

    @property
    def doc(self) -> dict[str, Any]:
        """The world document ``{"os": ..., "apps": ...}`` (live: see :class:`WorldDoc`)."""
        return self.world_doc.doc

    @property
    def files(self) -> VirtualFS:
        return self.world_doc.files

    @property
    def world_seed(self) -> int | None:
        """The generated world on the phone (None: the canonical one)."""
        return self.world_doc.world_seed

    def reset_state(self, seed: int | None = None) -> None:
        """The world of ``seed`` (generated once, then cached; the canonical world when the phone was made
        with ``world="canonical"`` or no seed is given), its clock at the world's start, the home screen."""
        self.world_doc.reset(seed)
        self._changed()

    def get_state(self) -> dict[str, Any]:
        """A private copy of the whole document in plain dicts (every app's state generated and loaded)."""
        doc = self.doc
        if not isinstance(doc["apps"], AppStates):
            return copy_doc(doc)
        return {key: value.plain() if key == "apps" else copy_doc(value) for key, value in doc.items()}

    def copy_state(self) -> dict[str, Any]:
        """A private copy of the document whose apps not read yet stay unread (loaded when the copy reads them):
        what the judge takes, so judging an episode generates only the apps it reads."""
        return copy_doc(self.doc)

    def peek_state(self) -> dict[str, Any]:
        """The live world document, not a copy: read it, never change it (cheap per-step judging)."""
        return self.doc

    def view_state(self) -> dict[str, tuple[str, ...]]:
        """Per app, the state paths its declaration calls view state rather than user data (the judge
        reports their changes without failing the task)."""
        return {app_id: app.view_state for app_id, app in self.apps.items() if app.view_state}

    def set_state(self, patch: dict[str, Any]) -> None:
        self.world_doc.patch(patch)
        self._changed()

    def snapshot(self) -> PhoneSnapshot:
        """Freeze the whole phone, e.g. to fork grouped rollouts from one state."""
        return self.world_doc.snapshot()

    def restore(self, snapshot: PhoneSnapshot) -> None:
        """Return to a snapshot taken with :meth:`snapshot`."""
        self.world_doc.restore(snapshot)
        self._changed()

    def fork(self) -> Phone:
        """A new phone in this one's exact state (world, screens, clock, files); the two then move apart."""
        twin = copy.copy(self)
        twin.world_doc = self.world_doc.fork()
        twin.nav, twin.input = Navigator(twin), Input(twin)
        twin.frame_cache = FrameCache(self.frame_cache.reuse)
        return twin

    def time_ms(self) -> int:
        return self.world_doc.time_ms()

    def current_app(self) -> str:
        return self.doc["os"]["foreground"]

    def current_route(self) -> str:
        return self.doc["os"]["route"]

    def close(self) -> None:
        self.frame_cache = FrameCache(self.frame_cache.reuse)

    # Device: observation -------------------------------------------------------
    def frame(self) -> Frame:
        """The current laid-out screen (kept until something it shows changes: see :mod:`.frame_cache`)."""
        return self.frame_cache.frame(lambda: compose(self), self.doc["os"])

    def screenshot(self) -> np.ndarray:
        return self.frame_cache.pixels(self.frame(), self.render_size, self.density * self.render_scale).copy()

    def system_text(self, text: str, context: str | None = None, **fields: Any) -> str:
        """The system UI's own text (navigation bar, shade, calls) in the language the phone shows."""
        return system_text(self.doc["os"]["language"], text, context, **fields)

    def a11y_xml(self) -> str:
        return self.frame_cache.xml(self.frame(), self._export_tree)

    def _export_tree(self, frame: Frame) -> str:
        exporter = TreeExporter(frame.env, self.density, (0, 0, self.width, self.height))
        return exporter.export(frame.tree_windows())

    # Device: input -------------------------------------------------------------
    def tap(self, x: int, y: int) -> None:
        point = self._dp(x, y)
        self._input(lambda: self.input.tap(*point))

    def double_tap(self, x: int, y: int) -> None:
        self.tap(x, y)
        self.tap(x, y)

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        point = self._dp(x, y)
        self._input(lambda: self.input.long_press(*point))

    def swipe(self, x: int, y: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        start, end = self._dp(x, y), self._dp(x2, y2)
        self._input(lambda: self.input.drag(start, end, 2.0 if duration_ms < FLING_MS else 1.0))

    def drag(self, x: int, y: int, x2: int, y2: int) -> None:
        start, end = self._dp(x, y), self._dp(x2, y2)
        self._input(lambda: self.input.drag(start, end, 1.0))

    def type_text(self, text: str, clear: bool = False) -> bool:
        """Type into the focused field; returns False when no field has focus (the input still counts, as on
        Android, where keys with nothing focused reach no field)."""
        if not isinstance(text, str):
            raise ValueError(f"text must be a string, got {type(text).__name__}")
        typed: list[bool] = []
        self._input(lambda: typed.append(self.input.type_text(text, clear)))
        return typed[0]

    def key(self, name: str) -> None:
        if name not in KEYS:
            raise ValueError(f"unknown key {name!r}; keys: {', '.join(KEYS)}")
        self._input(lambda: self.input.key(name))

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

    def notify(self, app: str, title: str, text: str, route: str | None = None, *, heads_up: bool = False) -> str:
        """Post a notification as app ``app`` would (see :meth:`WorldDoc.notify`) and return its id."""
        notification_id = self.world_doc.notify(self.nav.resolve_app(app).id, title, text, route, heads_up=heads_up)
        self._changed()
        return notification_id

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

    def wait(self, seconds: float) -> None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float, np.integer, np.floating)):
            raise ValueError(f"seconds must be a number of seconds, got {seconds!r}")
        if seconds < 0:
            raise ValueError(f"cannot wait a negative time ({seconds} s)")
        if not seconds <= MAX_WAIT_S:  # NaN too
            raise ValueError(f"seconds must be at most {MAX_WAIT_S:g} (ten years), got {seconds!r}")
        self.world_doc.advance(round(seconds * 1000))
        self.frame_cache.keep_if_unchanged(self.doc["os"], lambda: True)

    # internals -----------------------------------------------------------------
    def _changed(self) -> None:
        self.frame_cache.invalidate()

    def _dp(self, x: float, y: float) -> tuple[float, float]:
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ValueError(f"point ({x}, {y}) is outside the {self.width}x{self.height} screen")
        return x / self.density, y / self.density

    def _input(self, action: Callable[[], None], failure: Callable[[BaseException], Exception] | None = None) -> None:
        """Run one input against the current screen, let the clock tick, and build the next screen.

        It is all or nothing: when the input's handler or the next screen fails, the phone is put back
        as it was (navigation, and every app whose state the input's handlers touched: see
        :class:`WorldDoc`) and :class:`AppError` (or ``failure(exc)``) is raised. The saving is cheap: the
        small ``os`` part of the document is serialised every input, an app's state only when a handler
        touches it.
        """
        world = self.world_doc
        if world.in_input:  # an input from inside an input's handler: part of that one (one tick)
            action()
            return
        try:
            self.frame()
        except Exception as exc:
            raise AppError(f"{self.current_app()} {self.current_route()}: the screen cannot be built: "
                           f"{_describe(exc)}") from exc
        world.begin_input()
        try:
            self.doc["os"]["toast"] = None
            action()
            world.handlers_done()
            world.advance(self.tick_ms)
            self.frame_cache.keep_if_unchanged(self.doc["os"], world.journaled_apps_unchanged)
            self.frame()
        except Exception as exc:
            where = f"{self.current_app()} {self.current_route()}"
            world.rollback()
            self._changed()
            if failure is not None:
                raise failure(exc) from exc
            raise AppError(f"{where}: {_describe(exc)} (the phone was put back as it was before the input)") from exc
        finally:
            world.end_input()


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
