"""AnswerSheet: the form where an agent enters and submits its answer in grounded mode.

Resource-ids scripted agents rely on: ``question``, ``hint``, ``field_<i>_label``,
``field_<i>_input`` (one per entry of a text/number field), ``field_<i>_option`` (choice
buttons), ``field_<i>_add`` / ``field_<i>_remove`` (repeatable fields) and ``submit``.
"""
from .app import APP

from . import screens  # noqa: F401  (registers the screens on APP)

__all__ = ["APP"]
