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


_ARTICLE_BEFORE = re.compile(r"(?:^|(?<=\s))(?:the|a|an)\s+$")
_LEADING_ARTICLE = re.compile(r"(?:The|A|An)\s")


def render_prose(template: str, params: Mapping[str, Any]) -> str:
    """:func:`render` for a sentence a person reads: a value that starts with an article ("The Lighthouse
    Keeper's Daughter") takes the place of the template's own article before it ("order me the {title}" reads
    "order me The Lighthouse Keeper's Daughter", not "the The ...")."""
    out: list[str] = []
    at = 0
    for match in PLACEHOLDER.finditer(template):
        out.append(template[at:match.start()])
        at = match.end()
        if match.group(0) in ("{{", "}}"):
            out.append(match.group(0)[0])
            continue
        value = lookup(params, match.group(1))
        text = format(value, match.group(2)) if match.group(2) else str(value)
        if _LEADING_ARTICLE.match(text) and out and _ARTICLE_BEFORE.search(out[-1]):
            out[-1] = _ARTICLE_BEFORE.sub("", out[-1])
        out.append(text)
    out.append(template[at:])
    return "".join(out)


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
