"""The ``eval`` extra: the optional packages ``mobilegym eval`` uses, imported lazily with a clear message.

``pip install 'mobilegym[eval]'`` installs httpx (the model endpoint), tqdm (the progress bar) and
matplotlib (the report's plots). A model agent that cannot send requests fails when it is built, at
the start of a run, never episode by episode.
"""
from __future__ import annotations

import importlib
from typing import Any

INSTALL = "pip install 'mobilegym[eval]'"


class MissingExtra(ImportError):
    """An optional package of ``mobilegym eval`` is not installed; the message names the extra."""


def require(module: str, what: str) -> Any:
    """Import ``module`` or raise :class:`MissingExtra` saying that ``what`` needs it and how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtra(f"{what} needs {module!r}, which is not installed: {INSTALL}") from None


def available(module: str) -> bool:
    """Whether ``module`` can be imported."""
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True
