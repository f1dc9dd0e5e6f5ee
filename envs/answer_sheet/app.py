"""The answer_sheet app's declaration; the package registers its screens and preparers on it."""
from mobilegym.judge.grounded import ANSWER_SHEET, SHEET_LABELS
from mobilegym.sim.app import SimApp

# The judge's grounded mode defines this app's id and names (it asks the agent to open it by name).

APP = SimApp(id=ANSWER_SHEET, label=SHEET_LABELS["en"], label_zh=SHEET_LABELS["zh"], home="/", glyph="✎", color="#00897B",
             defaults_package=__package__)
