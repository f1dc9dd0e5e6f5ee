"""The errors of the OpenAI-compatible agent: a failed endpoint and an unusable model reply."""
from __future__ import annotations

from ..base import ModelError


class ParseError(ValueError):
    """A model reply that names no valid action; the message says what was wrong.

    The agent turns it into a step without an action (``Decision.error``) and tells the model on
    the next turn; it never ends the episode by itself.
    """


__all__ = ["ModelError", "ParseError"]
