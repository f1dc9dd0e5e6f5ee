"""mobilegym.saferegex: untrusted patterns on RE2, linear time, clear refusals."""
from __future__ import annotations

import time

import pytest

from mobilegym.saferegex import MAX_PATTERN_CHARS, UnsafeRegexError, compile_untrusted


def test_catastrophic_patterns_run_in_linear_time():
    start = time.perf_counter()
    assert compile_untrusted("(a+)+$").search("a" * 200_000 + "b") is None
    assert compile_untrusted("(a|aa)*c").fullmatch("a" * 200_000) is None
    assert compile_untrusted("^(\\w+\\s?)*$").match("word " * 40_000 + "!") is None
    assert time.perf_counter() - start < 2.0


def test_the_usual_calls_work():
    pattern = compile_untrusted(r"alarm_(\d+)", ignore_case=True)
    assert pattern.search("my ALARM_17 x").group(1) == "17"
    assert pattern.fullmatch("alarm_3") and not pattern.match("x alarm_3")
    assert [m.group(0) for m in compile_untrusted(r"\d").finditer("a1b2")] == ["1", "2"]
    assert compile_untrusted("a.b", dot_all=True).search("a\nb") and not compile_untrusted("a.b").search("a\nb")
    assert compile_untrusted("a.c").search("a\ud800c")  # a lone surrogate in the subject does not crash


@pytest.mark.parametrize("pattern,message", [
    (r"(a)\1", "invalid escape sequence"),
    ("(?=a)", "invalid perl operator"),
    ("(?<!a)b", "invalid perl operator"),
    ("(", "missing )"),
    ("a{1001}", "invalid repetition size"),
    ("x" * (MAX_PATTERN_CHARS + 1), "character limit"),
    ("a\x00", "NUL"),
    ("\ud800", "cannot be compiled"),
    (b"bytes", "must be text"),
    (["list"], "must be text"),
])
def test_patterns_re2_cannot_run_are_refused_by_name(pattern, message):
    with pytest.raises(UnsafeRegexError, match="regular expression|must be text") as info:
        compile_untrusted(pattern)
    assert message in str(info.value)
    assert isinstance(info.value, ValueError)


def test_the_helper_depends_on_nothing_else_of_mobilegym():
    import ast
    from pathlib import Path

    import mobilegym.saferegex as module

    tree = ast.parse(Path(module.__file__).read_text())
    imported = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert not [name for name in imported if name.startswith("mobilegym")]
