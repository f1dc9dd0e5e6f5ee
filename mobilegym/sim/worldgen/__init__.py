"""Procedurally generated worlds: every seed a different, realistic phone (see :mod:`.world`)."""
from __future__ import annotations

import marshal
from dataclasses import dataclass
from functools import lru_cache

from .cast import Person, Phone
from .pools import PoolError, load_pool
from .world import World, WorldError

WORLD_CACHE_SIZE = 64  # generated worlds kept per process (a few hundred KB each)


@dataclass(frozen=True)
class WorldImage:
    """A generated world ready to load: the phone's start time and each app's data as marshal bytes
    (format 2: equal data gives equal bytes)."""

    seed: int
    time_ms: int
    apps: dict[str, bytes]


@lru_cache(maxsize=WORLD_CACHE_SIZE)
def world_image(seed: int, language: str, app_ids: tuple[str, ...]) -> WorldImage:
    """The world of ``seed`` for these apps, generated once per process and then served from a cache."""
    from ..app import load_app

    world = World(seed, language, load_app)
    return WorldImage(world.seed, world.time_ms,
                      {app_id: marshal.dumps(world.app_state(app_id), 2) for app_id in app_ids})


__all__ = ["Person", "Phone", "PoolError", "World", "WorldError", "WorldImage", "load_pool", "world_image"]
