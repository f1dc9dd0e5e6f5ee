"""Getters of JSON tasks: turn a ``{"type": name, ...}`` description into evidence.

A getter reads the phone (state, accessibility tree, screen, files, shell) or the
episode (the agent's answer) or the task file itself (``rule``). Getters are looked up
by name in :data:`GETTERS`; one that needs a capability the device lacks raises a task
error naming it.
"""
from __future__ import annotations

import base64
import errno
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mobilegym.device.base import CAP_FILES, CAP_SHELL, CAP_STATE, Device
from mobilegym.judge.episode import copy_state
from mobilegym.judge.state import paths
from mobilegym.judge.errors import TaskError
from mobilegym.judge.grounded import ANSWER_SHEET, joined_answer
from mobilegym.judge.json.languages import pick, rule_value
from mobilegym.judge.json.strict import StrictJSONError, loads_strict
from mobilegym.judge.json.setup_actions import check_device_path, require


@dataclass
class GetterContext:
    """What getters may read: the device, the state right after setup, and the agent's output.

    ``sheet_fields`` > 0 means grounded mode: answers come from the AnswerSheet with that many fields.
    ``language`` is the phone's: it picks per-language paths and rule values.
    The device's state is read at most once per context (one evaluation).
    """

    device: Device
    task_dir: Path
    default_app: str | None
    initial_state: dict[str, Any] | None
    answer: str | None
    last_action: str | None
    sheet_fields: int = 0
    language: str = "en"
    _state: dict[str, Any] | None = field(default=None, repr=False)

    def state(self, user: str) -> dict[str, Any]:
        """The world document now (needs the state capability; ``user`` names who asks)."""
        require(self.device, CAP_STATE, user)
        if self._state is None:
            self._state = copy_state(self.device)
        return self._state

    def os_state(self) -> dict[str, Any]:
        """The OS state for metrics that need the phone's date (just the clock on stateless devices)."""
        if CAP_STATE in self.device.capabilities:
            return self.state("os_state")["os"]
        return {"time_ms": self.device.time_ms()}


Getter = Callable[[GetterContext, dict[str, Any]], Any]
GETTERS: dict[str, Getter] = {}


def getter(name: str) -> Callable[[Getter], Getter]:
    """Register a getter under a type name."""
    def register(fn: Getter) -> Getter:
        GETTERS[name] = fn
        return fn
    return register


def get(ctx: GetterContext, spec: dict[str, Any] | None) -> Any:
    """The evidence a spec describes (``None`` for a null spec)."""
    if spec is None:
        return None
    kind = spec["type"]
    if kind not in GETTERS:
        raise TaskError(f"unknown getter {kind!r}; known: {', '.join(sorted(GETTERS))}")
    return GETTERS[kind](ctx, spec)


def _state(ctx: GetterContext, spec: dict[str, Any], user: str) -> dict[str, Any]:
    if spec.get("initial", False):
        if ctx.initial_state is None:
            raise TaskError(f"{user} with initial=true needs a device with the {CAP_STATE!r} capability")
        return ctx.initial_state
    return ctx.state(user)


@getter("app_state")
def _app_state(ctx: GetterContext, spec: dict[str, Any]) -> Any:
    """The value at ``path`` ("clock:.alarms[0]", or ".alarms" of ``app`` / the task's first app). With
    ``count``, how many values of the list at ``path`` equal it (".notes[*].pinned", count true: the pinned
    notes); a path that is not a list is a task error."""
    state = _state(ctx, spec, "app_state")
    path = pick(spec["path"], ctx.language, "app_state path")
    value = paths.resolve_state(state["apps"], state["os"], path, spec.get("app", ctx.default_app))
    if "count" not in spec:
        return value
    if not isinstance(value, list):
        raise TaskError(f"app_state {path!r} with count: the path must give a list, got {type(value).__name__}")
    wanted = spec["count"]
    return sum(item == wanted and isinstance(item, bool) == isinstance(wanted, bool) for item in value)


@getter("os_state")
def _os_state(ctx: GetterContext, spec: dict[str, Any]) -> Any:
    """The value at ``path`` (".wifi", ".time_ms") of the OS part of the state."""
    state = _state(ctx, spec, "os_state")
    return paths.resolve(state["os"], pick(spec["path"], ctx.language, "os_state path"))


@getter("a11y_tree")
def _a11y_tree(ctx: GetterContext, spec: dict[str, Any]) -> str:
    """The accessibility tree (uiautomator XML)."""
    return ctx.device.a11y_xml()


@getter("current_app")
def _current_app(ctx: GetterContext, spec: dict[str, Any]) -> str:
    """The foreground app's id ("launcher" on the home screen)."""
    return ctx.device.current_app()


@getter("current_route")
def _current_route(ctx: GetterContext, spec: dict[str, Any]) -> str:
    """The foreground route; ``without_query`` drops "?id=..."."""
    route = ctx.device.current_route()
    return urlsplit(route).path if spec.get("without_query", False) else route


@getter("screenshot")
def _screenshot(ctx: GetterContext, spec: dict[str, Any]) -> Any:
    """A fresh screenshot (uint8 H x W x 3 array)."""
    return ctx.device.screenshot()


@getter("answer")
def _answer(ctx: GetterContext, spec: dict[str, Any]) -> Any:
    """The agent's answer; None if it gave none.

    Text mode: the text of the answer action. Grounded mode: the submitted AnswerSheet's
    entries joined with ", ", or with ``field`` (an index) that field alone (a list of
    entries for a repeatable field); None while the sheet is not submitted.
    """
    if not ctx.sheet_fields:
        return ctx.answer
    sheet = ctx.state("answer")["apps"][ANSWER_SHEET]
    if "field" not in spec:
        return joined_answer(sheet, ctx.sheet_fields)
    if not 0 <= spec["field"] < ctx.sheet_fields:
        raise TaskError(f"answer field {spec['field']} does not exist (the sheet has {ctx.sheet_fields})")
    if sheet["submitted"] is not True:
        return None
    raw = sheet["answers"].get(str(spec["field"]))
    if isinstance(raw, list):
        return [str(v).strip() for v in raw if v is not None and str(v).strip()]
    return str(raw).strip() if raw is not None and str(raw).strip() else None


@getter("rule")
def _rule(ctx: GetterContext, spec: dict[str, Any]) -> Any:
    """The literal ``value`` written in the task file, or its ``by_language`` entry for the phone's language."""
    return rule_value(spec, ctx.language)


@getter("device_file")
def _device_file(ctx: GetterContext, spec: dict[str, Any]) -> Any:
    """A file on the device, decoded ``as`` "text" (default), "json" or "base64"; None if absent."""
    require(ctx.device, CAP_FILES, "device_file")
    try:
        data = ctx.device.pull(check_device_path(spec["path"]))
    except OSError as exc:  # FileNotFoundError, or an OSError with errno ENOENT from a virtual file system
        if isinstance(exc, FileNotFoundError) or exc.errno == errno.ENOENT:
            return None
        raise
    form = spec.get("as", "text")
    if form == "base64":
        return base64.b64encode(data).decode("ascii")
    text = data.decode("utf-8", errors="replace")
    if form == "json":
        try:  # strict: NaN, infinities and deep nesting (a file the agent wrote) read as no JSON
            return loads_strict(text, allow_duplicates=True)
        except (json.JSONDecodeError, StrictJSONError):
            return None
    return text


@getter("device_shell")
def _device_shell(ctx: GetterContext, spec: dict[str, Any]) -> str:
    """The output of a device shell command, without trailing whitespace."""
    require(ctx.device, CAP_SHELL, "device_shell")
    return ctx.device.shell(spec["command"]).rstrip()
