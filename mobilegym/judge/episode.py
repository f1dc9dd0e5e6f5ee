"""Task references and episodes: what the environment drives, whatever the task's kind.

``ref.start(device, seed)`` runs a task's set-up on the phone and returns an :class:`Episode`;
``episode.evaluate(answer, last_action)`` reads the phone's state and returns a JudgeResult.
Python tasks (:mod:`mobilegym.judge.python`) and JSON tasks (:mod:`mobilegym.judge.json`) share
one start: :func:`check_start_options` for the options and :func:`open_answer_sheet` for grounded
mode (the AnswerSheet, the instruction's request and the larger step budget).
"""
from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from typing import Any, Mapping, Sequence

from mobilegym.device.base import CAP_STATE, Device, StateDevice
from mobilegym.judge.grounded import ANSWER_SHEET, EXTRA_STEPS, grounded_instruction, sheet_state
from mobilegym.judge.result import JudgeResult
from mobilegym.judge.state.side_effects import check_side_effect_mode

EVAL_MODES = ("grounded", "text")
DIFFICULTY_STEPS = {"L1": 15, "L2": 30, "L3": 45, "L4": 60}


class Episode(ABC):
    """One run of a task on a device."""

    id: str
    params: dict[str, Any]
    instruction: str
    max_steps: int
    metadata: dict[str, Any]
    eval_mode: str

    @abstractmethod
    def evaluate(self, answer: str | None = None, last_action: str | None = None) -> JudgeResult:
        """Judge the phone's current state (never raises for task bugs: see JudgeResult.error)."""

    def goal_reached(self, answer: str | None = None) -> bool:
        """Whether every check passes right now."""
        return self.evaluate(answer).success

    def progress(self, answer: str | None = None) -> float:
        """Fraction of checks passing right now (0.0 on a task error)."""
        return self.evaluate(answer).progress

    def tear_down(self) -> None:
        """Leave the episode: run the task's tear-down once it is over (default: nothing to undo). A broken
        tear-down raises TaskError; a DeviceError is the device's."""

    def on(self, device: Any) -> Episode:
        """This episode judged on another device in the same state (a fork of the episode's phone)."""
        twin = copy.copy(self)
        twin.device = device
        return twin


class TaskRef(ABC):
    """A startable task: an id, its metadata, and ``start``."""

    id: str
    metadata: dict[str, Any]

    @abstractmethod
    def start(self, device: Any, seed: int = 0, eval_mode: str = "grounded", language: str = "en",
              params: Mapping[str, Any] | None = None, side_effects: str = "strict",
              world_seed: int | None = None, spread_seed: int | None = None) -> Episode:
        """Reset the device to a world, set the task up, and return the episode. ``side_effects``:
        "strict" (a change to the user's data the task did not ask for fails it) or "warn" (only
        reported). ``world_seed``: the generated world to start from (default: the episode's ``seed``).
        ``spread_seed``: the seed the caller reset with, which spreads answers evenly over consecutive
        seeds (tasks/spread.py; None: the episode's own draws)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TaskRef) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)


def read_state(device: StateDevice) -> Mapping[str, Any]:
    """The device's state for reading only (on the simulated phone the live document, no copy)."""
    return device.peek_state()


def copy_state(device: StateDevice) -> dict[str, Any]:
    """A private copy of the device's state for judging (on the simulated phone apps nobody read stay unread)."""
    return device.copy_state()


def on_canonical_phone(device: Device) -> bool:
    """Whether ``device`` is the fixed canonical phone, whose facts are documented (answers are not spread there)."""
    return CAP_STATE in device.capabilities and device.canonical


def check_start_options(eval_mode: str, side_effects: str) -> None:
    """The start options every task kind takes; a bad one raises ValueError naming it."""
    if eval_mode not in EVAL_MODES:
        raise ValueError(f"eval_mode must be one of {', '.join(EVAL_MODES)}, got {eval_mode!r}")
    check_side_effect_mode(side_effects)


def open_answer_sheet(device: Any, instruction: str, question: str | None, hint: str,
                      fields: Sequence[Mapping[str, Any]], language: str, budget: int) -> tuple[str, int]:
    """Grounded mode's set-up: the AnswerSheet shows the question (else the instruction), the hint
    and the fields. Returns the instruction with its request to fill the sheet, and the step budget
    with the steps that takes."""
    device.set_state({"apps": {ANSWER_SHEET: sheet_state(question or instruction, hint, fields)}})
    return grounded_instruction(instruction, language), budget + EXTRA_STEPS
