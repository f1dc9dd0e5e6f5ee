"""The path language, placeholders, and the simulated-clock helpers."""
from __future__ import annotations

import datetime as dt

import pytest

from mobilegym.judge import PathError, TaskError, now_ms, sim_datetime, sim_today
from mobilegym.judge.state.paths import Filter, Index, Key, Wild, anchor, parse_path, patch_for, resolve, resolve_state
from mobilegym.judge.state.templating import placeholders, render, substitute
from mobilegym.judge.timeutil import datetime_to_ms

DOC = {
    "alarms": [
        {"id": "a1", "label": "Wake up", "enabled": True, "hour": 6, "meta": {"owner": {"name": "Ann"}}, "score": 1.0},
        {"id": "a2", "label": "Gym", "enabled": False, "hour": 7, "meta": {"owner": {"name": "Bob"}}, "score": 2},
        {"id": 3, "label": "a.b]c", "enabled": None, "hour": 22, "meta": {}, "score": None},
    ],
    "profile": {"name": "Zoe", "tags": ["x", "y"], "empty": None},
}


@pytest.mark.parametrize("path, value", [
    (".profile.name", "Zoe"),
    ("profile.name", "Zoe"),                          # the leading dot is optional
    (".profile.tags[1]", "y"),
    (".profile.tags[-1]", "y"),
    (".alarms[0].label", "Wake up"),
    (".alarms[id=a2].label", "Gym"),
    (".alarms[id=3].hour", 22),                       # an int id read from path text
    (".alarms[enabled=True].id", "a1"),
    (".alarms[enabled=false].id", "a2"),
    (".alarms[enabled=None].id", 3),
    (".alarms[score=2.0].id", "a2"),                  # numbers compare numerically
    (".alarms[score=1].id", "a1"),
    (".alarms[label=Wake up].hour", 6),               # spaces in a value
    (".alarms[label='a.b]c'].hour", 22),              # quoted value with path characters
    (".alarms[meta.owner.name=Bob].id", "a2"),        # nested filter field
    (".alarms[.meta.owner.name=Ann].id", "a1"),
    (".alarms[*].label", ["Wake up", "Gym", "a.b]c"]),
    (".alarms[*].meta.owner.name", ["Ann", "Bob"]),   # absent in one item: skipped
    (".alarms[*].enabled", [True, False, None]),      # present but None: kept
    (".profile.*", ["Zoe", ["x", "y"], None]),
    (".profile.missing", None),
    (".profile.empty", None),
    (".profile.tags[5]", None),
    (".alarms[id=zz].label", None),
    (".profile.name.first", None),                    # walking into a string
    (".profile[0]", None),                            # indexing a dict
    ("", DOC),
])
def test_resolve(path, value):
    assert resolve(DOC, path) == value


def test_placeholders_keep_type_in_filters_and_render_in_keys():
    assert resolve(DOC, ".alarms[id={aid}].label", {"aid": "a2"}) == "Gym"
    assert resolve(DOC, ".alarms[id={n}].label", {"n": 3}) == "a.b]c"
    assert resolve(DOC, ".alarms[id={n}].label", {"n": "3"}) is None        # typed: "3" != 3
    assert resolve(DOC, ".alarms[enabled={on}].id", {"on": False}) == "a2"
    assert resolve(DOC, ".alarms[label=Wake {w}].id", {"w": "up"}) == "a1"  # mixed text renders
    assert resolve(DOC, ".profile.{field}", {"field": "name"}) == "Zoe"
    assert resolve(DOC, ".alarms[{i}].id", {"i": 1}) == "a2"
    assert resolve(DOC, ".alarms[meta.owner.name={who.name}].id", {"who": {"name": "Bob"}}) == "a2"
    with pytest.raises(TaskError, match="unknown parameter"):
        resolve(DOC, ".alarms[id={nope}].label", {"aid": "a1"})


def test_strict_resolution_names_the_missing_step():
    with pytest.raises(PathError, match=r"at \.alarms: no item with id='zz'"):
        resolve(DOC, ".alarms[id=zz].label", strict=True)
    with pytest.raises(PathError, match="no key 'nickname'"):
        resolve(DOC, ".profile.nickname", strict=True)
    with pytest.raises(PathError, match="out of range"):
        resolve(DOC, ".profile.tags[9]", strict=True)
    assert resolve(DOC, ".profile.empty", strict=True) is None  # present but None is not "absent"


@pytest.mark.parametrize("bad", [".a[", ".a[x]", ".a]", ".a[=1]", ".a[{p]"])
def test_malformed_paths(bad):
    with pytest.raises(PathError):
        parse_path(bad)


def test_parse_segments_and_prefixes():
    parsed = parse_path("clock:.alarms[id=a1].label")
    assert parsed.root == "clock"
    assert parsed.segments == (Key("alarms"), Filter(("id",), "a1", False), Key("label"))
    assert parse_path("os:.language").root == "os"
    assert parse_path(".a[*].b[2]").segments == (Key("a"), Wild(), Key("b"), Index(2))
    assert parse_path(".x.{p.q}").segments == (Key("x"), Key("{p.q}"))
    assert parse_path("a.b").is_plain and not parse_path("a[0]").is_plain


def test_resolve_state_roots():
    apps = {"clock": DOC, "settings": {"wifi": True}}
    os_state = {"language": "zh"}
    assert resolve_state(apps, os_state, ".profile.name", "clock") == "Zoe"
    assert resolve_state(apps, os_state, "settings:.wifi", "clock") is True
    assert resolve_state(apps, os_state, "os:.language", "clock") == "zh"
    with pytest.raises(PathError, match="no app 'mail'"):
        resolve_state(apps, os_state, "mail:.inbox", "clock")
    with pytest.raises(PathError, match="names no app"):
        resolve_state(apps, os_state, ".x", None)


def test_anchor_rules():
    apps = {"clock": {}, "settings": {}}
    assert anchor(".wifi", apps, "settings").root == "settings"
    assert anchor("clock.alarms", apps, "settings").root == "clock"          # first key names an app
    assert anchor("clock.alarms", apps, "settings").segments == (Key("alarms"),)
    assert anchor(".clock.alarms", apps, "settings").root == "settings"      # leading dot: relative
    assert anchor("wifi", apps, "settings").root == "settings"
    assert anchor("os.language", apps, "settings").root == "os"
    assert anchor("clock:.alarms", apps, "settings").root == "clock"


def test_patch_for_plain_paths_only():
    assert patch_for(".a.b", 1, "settings") == {"apps": {"settings": {"a": {"b": 1}}}}
    assert patch_for("clock:.x", 2, "settings") == {"apps": {"clock": {"x": 2}}}
    assert patch_for("os:.language", "zh", None) == {"os": {"language": "zh"}}
    with pytest.raises(PathError):
        patch_for(".alarms[0].enabled", True, "clock")


def test_templating():
    params = {"n": 3, "flag": False, "city": "Beijing", "who": {"name": "Ann"}, "x": 2.5}
    assert substitute("{n}", params) == 3 and substitute("{flag}", params) is False
    assert substitute("{who}", params) == {"name": "Ann"} and substitute("{who.name}", params) == "Ann"
    assert substitute("n={n}", params) == "n=3"
    assert substitute({"k": "{x}", "l": ["{city}", 1]}, params) == {"k": 2.5, "l": ["Beijing", 1]}
    assert substitute("plain", params) == "plain" and substitute(5, params) == 5
    assert render("{n:02d}:{x:.1f} {{literal}}", params) == "03:2.5 {literal}"
    assert placeholders("{a} and {b.c} {{no}}") == ["a", "b.c"]
    with pytest.raises(TaskError, match="unknown parameter"):
        render("{missing}", params)
    with pytest.raises(TaskError, match="has no field"):
        render("{who.age}", params)


def test_time_helpers_use_only_the_os_state():
    moment = dt.datetime(2026, 4, 5, 9, 30, 15)
    os_state = {"time_ms": datetime_to_ms(moment)}
    assert sim_datetime(os_state) == moment
    assert sim_today(os_state) == dt.date(2026, 4, 5)
    assert now_ms(os_state) == datetime_to_ms(moment)
    for helper in (sim_datetime, sim_today, now_ms):
        with pytest.raises(ValueError, match="time_ms"):
            helper({"language": "en"})
