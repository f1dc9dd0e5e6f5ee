"""The answer-spreading helpers for task samplers (see :mod:`mobilegym.judge.spread`)."""
from mobilegym.judge.spread import COUNT_SPAN, NAME_SPAN, Spread, fit_count, spread_choice, spread_count

__all__ = ["COUNT_SPAN", "NAME_SPAN", "Spread", "fit_count", "spread_choice", "spread_count"]
