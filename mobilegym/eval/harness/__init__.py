"""``mobilegym eval``: run an agent over tasks, seeds and worlds; write a reproducible results folder.

``config`` (what to run), ``plan`` (the episodes), ``episode`` (one episode), ``trajectory`` (its
files), ``local`` / ``ray_backend`` (where episodes run), ``results`` (the folder, resuming),
``summary`` (metrics), ``report`` / ``plots`` (HTML and PNG), ``run`` (the ``evaluate`` API).
"""
from .config import ConfigError, EvalConfig, PreflightError
from .run import EvalRun, evaluate

__all__ = ["ConfigError", "EvalConfig", "EvalRun", "PreflightError", "evaluate"]
