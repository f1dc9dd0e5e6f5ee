"""Agents ``mobilegym eval`` runs: the protocol, the built-in agents and loading any importable one."""
from __future__ import annotations

import importlib
from typing import Any, Callable, Mapping

from .base import Agent, AgentError, Decision, ModelError

BUILTIN = {
    "oracle": "mobilegym.eval.agents.scripted:OracleAgent",
    "random": "mobilegym.eval.agents.scripted:RandomAgent",
    "human": "mobilegym.eval.agents.human:HumanAgent",
    "openai": "mobilegym.eval.agents.openai.agent:OpenAIAgent",
}


class AgentSpecError(ValueError):
    """An ``--agent`` that names no built-in agent and no importable ``module:attr``."""


def agent_factory(spec: str) -> Callable[..., Any]:
    """The class or factory an agent spec names: a built-in name or ``package.module:attr``."""
    target = BUILTIN.get(spec, spec)
    module_name, sep, attr = target.partition(":")
    if not sep or not module_name or not attr:
        raise AgentSpecError(f"unknown agent {spec!r}: use one of {', '.join(BUILTIN)} or 'package.module:ClassName'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise AgentSpecError(f"agent {spec!r}: cannot import {module_name!r} ({exc})") from exc
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise AgentSpecError(f"agent {spec!r}: {module_name!r} has no callable {attr!r}")
    return factory


def load_agent(spec: str, options: Mapping[str, Any] | None = None) -> Agent:
    """Build the agent a spec names with keyword ``options``; it must follow :class:`Agent`."""
    factory = agent_factory(spec)
    try:
        agent = factory(**dict(options or {}))
    except TypeError as exc:
        raise AgentSpecError(f"agent {spec!r} cannot be built with the options {sorted(options or {})} ({exc}); "
                             f"pass its keyword arguments with --agent-arg KEY=VALUE") from exc
    missing = [m for m in ("reset", "act") if not callable(getattr(agent, m, None))]
    if missing:
        raise AgentSpecError(f"agent {spec!r} has no {' or '.join(missing)}() method; see mobilegym.eval.agents.Agent")
    return agent


def agent_name(agent: Any, spec: str) -> str:
    """The name results record for an agent (its ``name`` attribute, else the spec)."""
    return str(getattr(agent, "name", spec))


__all__ = ["Agent", "AgentError", "AgentSpecError", "BUILTIN", "Decision", "ModelError", "agent_factory",
           "agent_name", "load_agent"]
