"""The answer_sheet app's declaration; the package registers its screens and preparers on it."""
from mobilegym.answer_sheet_ids import ANSWER_SHEET, SHEET_LABELS
from mobilegym.sim.app import SimApp

APP = SimApp(id=ANSWER_SHEET, label=SHEET_LABELS["en"], label_zh=SHEET_LABELS["zh"], home="/", glyph="✎", color="#00897B",
             defaults_package=__package__)
