"""`{param}` placeholders in templates, criteria values, labels and paths."""
from __future__ import annotations

import re
from typing import Any, Mapping

from mobilegym.judge.errors import TaskError

PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z_]\w*(?:\.\w+)*)(?::([^{}]*))?\}")
_SINGLE = re.compile(r"\{([A-Za-z_]\w*(?:\.\w+)*)\}")


def lookup(params: Mapping[str, Any], name: str) -> Any:
    """The value of `name` or of a dotted `param.field` of a multi-field parameter."""
    head, *rest = name.split(".")
    if head not in params:
        raise TaskError(f"unknown parameter {{{name}}} (known: {', '.join(sorted(params)) or 'none'})")
    value = params[head]
    for part in rest:
        if not isinstance(value, Mapping) or part not in value:
            raise TaskError(f"parameter {{{name}}}: {head!r} has no field {part!r}")
        value = value[part]
    return value


def placeholders(text: str) -> list[str]:
    """Names of the placeholders used in `text`, in order."""
    return [m.group(1) for m in PLACEHOLDER.finditer(text) if m.group(1)]


def render(template: str, params: Mapping[str, Any]) -> str:
    """Fill every placeholder with its value as text (`{{`/`}}` give literal braces)."""

    def fill(match: re.Match[str]) -> str:
        if match.group(0) in ("{{", "}}"):
            return match.group(0)[0]
        value = lookup(params, match.group(1))
        return format(value, match.group(2)) if match.group(2) else str(value)

    return PLACEHOLDER.sub(fill, template)


def substitute(value: Any, params: Mapping[str, Any]) -> Any:
    """Replace placeholders inside a value; a string that is exactly one placeholder keeps the parameter's type."""
    if isinstance(value, str):
        single = _SINGLE.fullmatch(value)
        if single:
            return lookup(params, single.group(1))
        return render(value, params) if "{" in value or "}" in value else value
    if isinstance(value, dict):
        return {substitute(k, params) if isinstance(k, str) else k: substitute(v, params) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, params) for v in value]
    if isinstance(value, tuple):
        return tuple(substitute(v, params) for v in value)
    return value
