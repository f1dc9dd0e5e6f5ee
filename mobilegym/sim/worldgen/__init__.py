"""Procedurally generated worlds: every seed a different, realistic phone (see :mod:`.world`)."""
from __future__ import annotations

import threading
from functools import lru_cache

from .cast import Person, Phone
from .pools import PoolError, load_pool
from .world import World, WorldError

WORLD_CACHE_SIZE = 64  # generated worlds kept per process (a few hundred KB each)


class WorldImage:
    """A generated world ready to load: the phone's start time, and each app's data as marshal bytes
    (format 2: equal data gives equal bytes), generated the first time :meth:`blob` asks for that app."""

    def __init__(self, world: World, app_ids: tuple[str, ...]) -> None:
        self.seed = world.seed
        self.time_ms = world.time_ms
        self.app_ids = app_ids
        self._world = world
        self._lock = threading.Lock()  # one image may serve phones on several threads (the ADB server)

    def blob(self, app_id: str) -> bytes:
        """The app's generated data as marshal bytes (the same bytes object every time)."""
        if app_id not in self.app_ids:
            raise KeyError(f"app {app_id!r} is not in this world image")
        with self._lock:
            return self._world.app_blob(app_id)

    @property
    def generated(self) -> frozenset[str]:
        """The apps generated so far, those another app's generator read included (the rest are generated when
        first asked for)."""
        return self._world.generated

    def __getstate__(self) -> dict:
        return {key: value for key, value in self.__dict__.items() if key != "_lock"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    @property
    def apps(self) -> dict[str, bytes]:
        """Every app's data as marshal bytes (generates what is not yet)."""
        return {app_id: self.blob(app_id) for app_id in self.app_ids}


@lru_cache(maxsize=WORLD_CACHE_SIZE)
def world_image(seed: int, language: str, app_ids: tuple[str, ...]) -> WorldImage:
    """The world of ``seed`` for these apps, made once per process and then served from a cache; each
    app's data is generated when first asked for."""
    from ..app import load_app

    return WorldImage(World(seed, language, load_app), app_ids)


__all__ = ["Person", "Phone", "PoolError", "World", "WorldError", "WorldImage", "load_pool", "world_image"]
