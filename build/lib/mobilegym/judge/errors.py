"""Exceptions of the judge."""
from __future__ import annotations


class TaskError(ValueError):
    """A task or its environment data is broken: a bug to fix, never an agent failure."""


class PathError(TaskError):
    """A state path is malformed, or a required value is absent from the state."""
