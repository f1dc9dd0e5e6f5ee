"""The world document of the simulated phone (``{"os": ..., "apps": ...}``) and its files: reset, patch,
snapshot and restore, the simulated clock, and the journal that makes each input all or nothing."""
from __future__ import annotations

import copy
import functools
import marshal
import random
from dataclasses import dataclass
from typing import Any, Callable

from ..jsoncopy import copy_doc
from .app import SimApp
from ..app_states import AppStates
from .clock import DEFAULT_START_MS
from .ime import initial_state
from .nav import LAUNCHER
from . import notifications
from .state import apply_patch
from .vfs import VirtualFS
from .worldgen import world_image


@dataclass(frozen=True)
class PhoneSnapshot:
    """Everything needed to put the phone back exactly as it was (state and navigation)."""

    doc: dict[str, Any]
    files: dict[str, Any]  # path -> vfs Node


class WorldDoc:
    """The one state document (OS + every app's state) and the phone's virtual files.

    During an input the journal keeps what the input may change: the ``os`` part when the input starts
    and each app's state the first time the input's handlers touch it (:meth:`app_state`, :meth:`touch`),
    so :meth:`rollback` puts every touched app back. Nothing else is copied per input.
    """

    def __init__(self, apps: dict[str, SimApp], language: str, world: str, shuffle_launcher: bool) -> None:
        self.apps = apps
        self.language = language
        self.world = world
        self.shuffle_launcher = shuffle_launcher
        # marshal format 2 (no back-references): equal states give equal bytes, see _fresh_apps
        self._defaults = {app_id: marshal.dumps(app.defaults(), 2) for app_id, app in apps.items()}
        self.doc: dict[str, Any] = {}
        self.files: VirtualFS
        self.world_seed: int | None = None  # the generated world on the phone (None: the canonical one)
        self._source: object = None  # what the apps were last loaded from (a world image, or the defaults)
        self._journal: dict[str | None, Any] | None = None  # None: the os part; app id: that app's state
        self._recording = False  # handlers are running: app states touched now are journaled

    # the document ---------------------------------------------------------
    def reset(self, seed: int | None) -> None:
        """The world of ``seed`` (the canonical world for ``world="canonical"`` or no seed), its clock at
        the world's start, the home screen, empty files."""
        order = sorted(self.apps, key=lambda a: self.apps[a].label)
        if self.shuffle_launcher and seed is not None:
            random.Random(seed).shuffle(order)
        if self.world == "canonical" or seed is None:
            self.world_seed, start_ms, source = None, DEFAULT_START_MS, self._defaults
            blob_of = self._defaults.__getitem__
        else:
            source = world_image(int(seed), self.language, tuple(self.apps))
            self.world_seed, start_ms, blob_of = source.seed, source.time_ms, source.blob
        self.doc = {
            "os": {
                "time_ms": start_ms, "language": self.language, "foreground": LAUNCHER, "route": "/",
                "stacks": {}, "recents": [], "overlay": None, "focus": None, "toast": None, "seq": 100,
                "ime": initial_state(self.language),
                "launcher": {"order": order},
                "shade": False, "notifications": [], "heads_up": None, "interruption": None,
            },
            "apps": self._fresh_apps(blob_of, same_world=source is self._source),
        }
        self._source = source
        self.files = VirtualFS(clock=self.time_ms)

    def _fresh_apps(self, blob_of: Callable[[str], bytes], same_world: bool) -> AppStates:
        """Every app's state, each loaded from its marshal bytes when first read. An app read in the current
        document from the same bytes (the same world again) that still marshals to them keeps that object (an
        episode touches few apps: no reload, no free); the others wait to be read (a generated world's app
        is generated then)."""
        current = self.doc.get("apps")
        kept: dict[str, Any] = {}
        if same_world and isinstance(current, AppStates):
            for app_id in self.apps:
                blob = current.origin(app_id)
                if blob is not None and blob is blob_of(app_id) and _marshal_v2(current[app_id]) == blob:
                    kept[app_id] = current[app_id]
        pending = {app_id: functools.partial(blob_of, app_id) for app_id in self.apps}
        return AppStates(self.apps, pending, kept, {app_id: current.origin(app_id) for app_id in kept})

    def patch(self, patch: dict[str, Any]) -> None:
        """Deep-merge a patch of ``os`` and ``apps`` into the document, all or nothing."""
        unknown = set(patch) - {"os", "apps"}
        if unknown:
            raise ValueError(f"state patch keys must be 'os' or 'apps', got {sorted(unknown)}")
        trial = copy_doc(self.doc)
        apply_patch(trial, patch)
        self.doc = trial

    def notify(self, app_id: str, title: str, text: str, route: str | None = None, *, heads_up: bool = False) -> str:
        """Post a notification of an installed app (shown in the shade, and heads-up with ``heads_up``) and
        return its id; a tap on it opens ``route`` (a screen of the app, None: its home). View state only."""
        app = self.apps.get(app_id)
        if app is None:
            raise ValueError(f"cannot post a notification of {app_id!r}: no such app is installed")
        if isinstance(route, str) and route.startswith("/") and route.partition("?")[0] not in app.screens:
            raise ValueError(f"app {app_id!r} has no screen {route!r} for a notification to open; "
                             f"screens: {sorted(app.screens)}")
        return notifications.post(self.doc["os"], app_id, title, text, route, heads_up=heads_up)

    def snapshot(self) -> PhoneSnapshot:
        return PhoneSnapshot(copy_doc(self.doc), copy.deepcopy(self.files.nodes))

    def fork(self) -> WorldDoc:
        """A new document in this one's exact state, sharing only what never changes (the apps, their
        defaults, the world image)."""
        if self.in_input:
            raise RuntimeError("cannot fork the phone while an input is running")
        twin = copy.copy(self)
        twin.files = VirtualFS(clock=twin.time_ms)
        twin.restore(self.snapshot())
        return twin

    def restore(self, snapshot: PhoneSnapshot) -> None:
        self.doc = copy_doc(snapshot.doc)
        with self.files.lock:
            self.files.nodes = copy.deepcopy(snapshot.files)

    # the clock --------------------------------------------------------------
    def time_ms(self) -> int:
        return self.doc["os"]["time_ms"]

    def advance(self, ms: int) -> None:
        self.doc["os"]["time_ms"] += ms

    # the input journal --------------------------------------------------------
    @property
    def in_input(self) -> bool:
        return self._journal is not None

    def begin_input(self) -> None:
        """Start journaling an input: the ``os`` part now, app states as handlers touch them."""
        self._journal = {None: _freeze(self.doc["os"])}
        self._recording = True

    def handlers_done(self) -> None:
        """The input's handlers have run: building the next screen reads app states without journaling."""
        self._recording = False

    def end_input(self) -> None:
        self._journal = None
        self._recording = False

    def app_state(self, app_id: str) -> dict[str, Any]:
        """An app's live state; while an input's handlers run, journaled the first time it is asked for."""
        if self._recording:
            self.touch(app_id)
        return self.doc["apps"][app_id]

    def touch(self, app_id: str) -> None:
        """Journal ``app_id``'s state (once per input) before a handler may change it."""
        journal = self._journal
        if journal is not None and app_id not in journal:
            state = self.doc["apps"].get(app_id)
            if state is not None:
                journal[app_id] = _freeze(state)

    def journaled_apps_unchanged(self) -> bool:
        """Whether every app state the current input journaled still marshals to its journaled bytes (equal
        bytes are equal states; False only means the input may have changed one)."""
        journal = self._journal or {}
        for key, frozen in journal.items():
            if key is not None and (isinstance(frozen, _Copy) or _freeze(self.doc["apps"][key]) != frozen):
                return False
        return True

    def rollback(self) -> None:
        """Put back the ``os`` part and every app state the current input journaled."""
        journal = self._journal
        if journal is None:
            return
        for key, frozen in journal.items():
            if key is None:
                self.doc["os"] = _thaw(frozen)
            else:
                self.doc["apps"][key] = _thaw(frozen)


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


def _marshal_v2(value: Any) -> bytes | None:
    try:
        return marshal.dumps(value, 2)
    except ValueError:
        return None
