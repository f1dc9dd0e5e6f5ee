"""What a task's checks see."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class JudgeInput:
    """The phone's state now and at task start, plus the agent's answer.

    ``apps``/``os`` are the current state, ``apps_init``/``os_init`` the state recorded once
    setup finished, ``route`` the foreground screen's route, ``answer`` the agent's answer
    (text mode) or the joined AnswerSheet values (grounded Path B), None when absent.
    """

    apps: dict[str, Any]
    apps_init: dict[str, Any]
    os: dict[str, Any]
    os_init: dict[str, Any]
    route: str | None = None
    answer: str | None = None
