"""The world generator: one seed -> the whole initial phone (date, owner, cast, every app's data).

A :class:`World` holds what apps share (the phone's date and time, the owner, the cast) and hands
each app a seeded random stream of its own. Apps generate their data with ``SimApp.generate(world)``
and may read another app's generated data with :meth:`World.app_state` (Messages quotes Calendar's
events), so apps agree with each other. Every random draw comes from ``random.Random`` seeded with a
string, which Python hashes with SHA-512: the same seed gives the same world in any process and on
any machine; nothing reads the host clock or iterates a hash-ordered set.
"""
from __future__ import annotations

import datetime as dt
import marshal
import random
from typing import TYPE_CHECKING, Any, Callable, Mapping

from ..clock import to_ms
from ...languages import check_language
from .cast import Person, make_cast

if TYPE_CHECKING:
    from ..app import SimApp

FIRST_DAY = dt.date(2025, 1, 1)  # the phone's date is drawn from these three years
DAYS = 3 * 365
EARLIEST_MINUTE, LATEST_MINUTE = 7 * 60, 11 * 60  # the phone wakes between 07:00 and 11:00


class WorldError(RuntimeError):
    """An app's generator failed or apps depend on each other in a circle."""


class World:
    """The shared part of one generated world, and the apps' generated data as it is made."""

    def __init__(self, seed: int, language: str, apps: Mapping[str, "SimApp"] | Callable[[str], "SimApp"]) -> None:
        check_language(language)
        self.seed = int(seed)
        self.language = language
        self._find_app = apps if callable(apps) else apps.__getitem__
        rng = self.rng("world")
        day = FIRST_DAY + dt.timedelta(days=rng.randrange(DAYS))
        minute = rng.randrange(EARLIEST_MINUTE, LATEST_MINUTE)
        self.now = dt.datetime(day.year, day.month, day.day, minute // 60, minute % 60)
        self.owner, self.cast = make_cast(self.rng("cast"), language, day)
        self._blobs: dict[str, bytes] = {}  # each generated app's data as marshal bytes (format 2)
        self._making: list[str] = []
        self._memo: dict[str, Any] = {}
        self._contacts = tuple(p for p in self.cast if p.in_contacts)
        self._strangers = tuple(p for p in self.cast if not p.in_contacts)

    @property
    def today(self) -> dt.date:
        return self.now.date()

    @property
    def time_ms(self) -> int:
        return to_ms(self.now)

    def rng(self, name: str) -> random.Random:
        """A random stream of its own for ``name`` (an app id, or app id + purpose)."""
        return random.Random(f"mobilegym-world|{self.seed}|{self.language}|{name}")

    def t(self, en: str, zh: str) -> str:
        """The text for the world's language."""
        return zh if self.language == "zh" else en

    def contacts(self) -> list[Person]:
        """The people saved in the owner's address book, in cast order."""
        return list(self._contacts)

    def strangers(self) -> list[Person]:
        """People who text the owner but are not saved as contacts."""
        return list(self._strangers)

    def memo(self, name: str, make: Callable[[], Any]) -> Any:
        """``make()``, computed once per world under ``name`` (derived data generators reuse, such as
        lists of names drawn from the cast; never a random draw, never changed by the caller)."""
        if name not in self._memo:
            self._memo[name] = make()
        return self._memo[name]

    @property
    def generated(self) -> frozenset[str]:
        """The apps whose data has been generated so far (with those another app's generator read)."""
        return frozenset(self._blobs)

    def app_state(self, app_id: str) -> dict[str, Any]:
        """The generated data of an app (generated now if it has not been yet): a fresh copy, the caller's to read."""
        return marshal.loads(self.app_blob(app_id))

    def app_blob(self, app_id: str) -> bytes:
        """The generated data of an app as marshal bytes (format 2: equal data, equal bytes), generated now if it
        has not been yet. The world keeps the bytes, not the objects: a cached world holds few objects for the
        garbage collector to scan, and what a generator made dies young."""
        if app_id not in self._blobs:
            if app_id in self._making:
                raise WorldError(f"worldgen: apps depend on each other in a circle: {' -> '.join(self._making)} -> {app_id}")
            self._making.append(app_id)
            try:
                self._blobs[app_id] = marshal.dumps(self._find_app(app_id).initial_state(self), 2)
            finally:
                self._making.pop()
        return self._blobs[app_id]
