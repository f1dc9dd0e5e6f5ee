"""Agents for the harness tests, importable by spec ("tests.eval_agents:Name") from worker processes."""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Mapping

from mobilegym.eval.agents import AgentError, Decision, ModelError


class Stubborn:
    """Taps the same spot of the home screen wallpaper for ever (a loop)."""

    name = "stubborn"

    def reset(self, instruction: str, info: Mapping[str, Any]) -> None:
        pass

    def act(self, obs: Mapping[str, Any], info: Mapping[str, Any]) -> dict[str, Any]:
        return {"type": "wait", "seconds": 0}


class Sleepy:
    """An asynchronous agent whose model never answers in time."""

    name = "sleepy"

    def reset(self, instruction: str, info: Mapping[str, Any]) -> None:
        pass

    def act(self, obs: Mapping[str, Any], info: Mapping[str, Any]) -> dict[str, Any]:
        raise AssertionError("the harness must await aact")

    async def aact(self, obs: Mapping[str, Any], info: Mapping[str, Any]) -> Decision:
        await asyncio.sleep(60)
        return Decision(action={"type": "complete"})


class Failing:
    """Fails the way ``kind`` says: "bug" (an exception), "model" (ModelError), "agent" (AgentError),
    "type" (returns a string), "garbage" (an unparseable response, then completes)."""

    name = "failing"

    def __init__(self, kind: str = "bug", flag: str | None = None) -> None:
        self.kind = kind
        self.flag = Path(flag) if flag else None
        self.calls = 0

    def reset(self, instruction: str, info: Mapping[str, Any]) -> None:
        self.calls = 0

    def act(self, obs: Mapping[str, Any], info: Mapping[str, Any]) -> Any:
        self.calls += 1
        if self.flag is not None and self.flag.exists():
            return {"type": "complete"}
        if self.kind == "bug":
            raise ZeroDivisionError("the agent's own bug")
        if self.kind == "model":
            raise ModelError("endpoint returned 503 after 3 retries")
        if self.kind == "agent":
            raise AgentError("no idea")
        if self.kind == "type":
            return "tap the clock"
        if self.calls == 1:
            return Decision(action=None, response="I think I will tap", error="ParseError: no action found",
                            usage={"prompt_tokens": 100, "completion_tokens": 7})
        return Decision(action={"type": "complete"}, response='{"type": "complete"}',
                        usage={"prompt_tokens": 120, "completion_tokens": 5}, retries=1)


class Counting:
    """Completes at once; counts the episodes it was reset for in a file (across processes)."""

    name = "counting"

    def __init__(self, log: str) -> None:
        self.log = Path(log)

    def reset(self, instruction: str, info: Mapping[str, Any]) -> None:
        with self.log.open("a", encoding="utf-8") as out:
            out.write(f"{info['task_id']} {info['seed']} {info['repeat']}\n")

    def act(self, obs: Mapping[str, Any], info: Mapping[str, Any]) -> dict[str, Any]:
        return {"type": "complete"}


class NoAct:
    """Not an agent: it has no act()."""

    def reset(self, instruction: str, info: Mapping[str, Any]) -> None:
        pass
