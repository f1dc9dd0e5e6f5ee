"""Pools of realistic content (names, places, titles...) shipped as JSON data files beside the code.

A pool file is ``<name>.json`` (language-neutral) or ``<name>.<language>.json`` in a package's folder;
apps keep theirs next to their screens (``envs/<app>/``), the world keeps the shared ones here.
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from ...jsoncopy import copy_doc


class PoolError(ValueError):
    """A pool file that is missing or is not valid JSON."""


class MissingPool(PoolError):
    """A package ships no such pool file."""


@lru_cache(maxsize=None)
def _read(package: str, filename: str) -> Any:
    source = resources.files(package).joinpath(filename)
    try:
        return json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MissingPool(f"{package} has no pool file {filename}") from None
    except json.JSONDecodeError as exc:
        raise PoolError(f"{package}/{filename} is not valid JSON: {exc}") from None


def read_pool(package: str, name: str, language: str | None = None) -> Any:
    """The parsed pool ``name`` of ``package`` (``name.<language>.json`` when a language is given), shared
    by every world: read it, never change it (nor put its lists or dicts in an app's state)."""
    return _read(package, f"{name}.{language}.json" if language else f"{name}.json")


def load_pool(package: str, name: str, language: str | None = None) -> Any:
    """The parsed pool ``name`` of ``package`` (``name.<language>.json`` when a language is given): a
    fresh copy, so a generator may shuffle it without changing the next world."""
    return copy_doc(read_pool(package, name, language))
