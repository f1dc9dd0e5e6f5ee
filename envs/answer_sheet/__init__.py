"""AnswerSheet: the form where an agent enters and submits its answer in grounded mode.

Resource-ids scripted agents rely on: ``question``, ``hint``, ``field_<i>_label``,
``field_<i>_input`` (one per entry of a text/number field), ``field_<i>_option`` (choice
buttons), ``field_<i>_add`` / ``field_<i>_remove`` (repeatable fields) and ``submit``.
"""
from mobilegym.judge.grounded import ANSWER_SHEET, SHEET_LABELS
from mobilegym.sim.app import SimApp

# The judge's grounded mode defines this app's id and names (it asks the agent to open it by name).
APP = SimApp(id=ANSWER_SHEET, label=SHEET_LABELS["en"], label_zh=SHEET_LABELS["zh"], home="/", glyph="✎", color="#00897B",
             defaults_package=__name__)

from . import screens  # noqa: E402,F401  (registers the screens on APP)
