"""Reading Python-style action calls (``click(start_box='(1,2)')``, ``do(action="Tap", element=[1,2])``).

The call is parsed with :mod:`ast` and only literal values are accepted: nothing a model writes is
ever evaluated.
"""
from __future__ import annotations

import ast
import re
from typing import Any

from ..errors import ParseError


def _call(source: str) -> ast.Call:
    tree = ast.parse(source, mode="eval")
    if not isinstance(tree.body, ast.Call) or not isinstance(tree.body.func, ast.Name):
        raise SyntaxError("not a call of a plain name")
    return tree.body


def parse_call(source: str) -> tuple[str, dict[str, Any]]:
    """``name(key=literal, ...)`` -> (name, keyword arguments).

    Tolerates raw line breaks inside strings and text after the closing parenthesis. Raises
    ParseError for anything else: positional arguments, non-literal values, unbalanced text.
    """
    source = source.strip()
    candidates = [source, source.replace("\r", "\\r").replace("\n", "\\n")]
    close = source.rfind(")")
    if close != -1:
        candidates += [c[:c.rfind(")") + 1] for c in candidates]
    for candidate in candidates:
        try:
            call = _call(candidate)
        except SyntaxError:
            continue
        if call.args:
            raise ParseError(f"{call.func.id}(...) takes keyword arguments only, got positional ones in {source!r}")
        kwargs: dict[str, Any] = {}
        for keyword in call.keywords:
            if keyword.arg is None:
                raise ParseError(f"**arguments are not allowed in {source!r}")
            try:
                kwargs[keyword.arg] = ast.literal_eval(keyword.value)
            except ValueError:
                raise ParseError(f"argument {keyword.arg!r} of {call.func.id}() is not a literal value") from None
        return call.func.id, kwargs
    raise ParseError(f"not a readable action call: {_short(source)}")


def lenient_text(source: str, name: str, key: str) -> str | None:
    """The ``key='...'`` text of a ``name(...)`` call whose text holds unescaped quotes: everything
    from the opening quote to the same quote just before the final ``)``; None if it does not fit."""
    pattern = rf"\s*{re.escape(name)}\((?:.*?,\s*)?{re.escape(key)}=(['\"])(.*)\1\s*\)\s*"
    match = re.fullmatch(pattern, source, re.DOTALL)
    return match.group(2) if match else None


def _short(text: str) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= 120 else text[:117] + "...")
