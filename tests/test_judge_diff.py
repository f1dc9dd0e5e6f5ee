"""State diff and side-effect patterns."""
from __future__ import annotations

from mobilegym.judge.diff import diff, unexpected_changes
from mobilegym.judge.paths import StatePath, parse_path


def paths(changes):
    return [(c.path, c.kind) for c in changes]


def test_scalars_dicts_and_types():
    assert diff({"a": 1}, {"a": 1.0}) == []
    assert paths(diff({"a": 1}, {"a": True})) == [("a", "changed")]          # a bool is not an int
    assert paths(diff({"a": "1"}, {"a": 1})) == [("a", "changed")]
    assert paths(diff({"a": {"b": 1, "c": 2}}, {"a": {"b": 1, "d": 3}})) == [("a.c", "removed"), ("a.d", "added")]
    assert paths(diff({"a": None}, {"a": {}})) == [("a", "changed")]


def test_lists_of_items_are_matched_by_id():
    before = [{"id": "x", "v": 1}, {"id": "y", "v": 2}, {"id": "z", "v": 3}]
    after = [{"id": "z", "v": 3}, {"id": "x", "v": 9}, {"id": "w", "v": 0}]
    changes = diff({"l": before}, {"l": after})
    assert paths(changes) == [("l[id=x].v", "changed"), ("l[id=y]", "removed"), ("l[id=w]", "added"),
                              ("l", "reordered")]
    reorder = changes[-1]
    assert reorder.before == ["x", "z"] and reorder.after == ["z", "x"]


def test_other_id_fields_and_fallbacks():
    assert paths(diff({"l": [{"key": 1, "v": 1}]}, {"l": [{"key": 1, "v": 2}]})) == [("l[key=1].v", "changed")]
    no_ids = diff({"l": [{"v": 1}, {"v": 2}]}, {"l": [{"v": 1}, {"v": 3}, {"v": 4}]})
    assert paths(no_ids) == [("l[1].v", "changed"), ("l[2]", "added")]
    dup_ids = diff({"l": [{"id": 1}, {"id": 1}]}, {"l": [{"id": 1}]})            # ids not unique: by position
    assert paths(dup_ids) == [("l[1]", "removed")]


def test_scalar_lists():
    assert paths(diff({"t": ["a", "b"]}, {"t": ["b", "a"]})) == [("t", "reordered")]
    assert paths(diff({"t": ["a"]}, {"t": ["a", "b"]})) == [("t", "changed")]
    assert diff({"t": [1, 2]}, {"t": [1, 2]}) == []
    assert paths(diff({"t": [1]}, {"t": [True]})) == [("t", "changed")]


def anchored(text, app="clock"):
    parsed = parse_path(text)
    return StatePath(text, app, parsed.segments)


def test_unexpected_changes_patterns():
    before = {"os": {"time_ms": 1, "language": "en"},
              "apps": {"clock": {"alarms": [{"id": "a1", "label": "Gym", "on": False}], "format": 24},
                       "answer_sheet": {"submitted": False}}}
    after = {"os": {"time_ms": 99, "language": "zh"},
             "apps": {"clock": {"alarms": [{"id": "a1", "label": "Gym", "on": True}], "format": 12},
                      "answer_sheet": {"submitted": True}}}
    ignore = ["os.time_ms", "apps.answer_sheet"]

    def left(expected, params=None):
        return [c.path for c in unexpected_changes(before, after, expected, ignore, params)]

    assert left([]) == ["os.language", "apps.clock.alarms[id=a1].on", "apps.clock.format"]
    assert left([anchored(".alarms[id=a1].on"), anchored(".format")]) == ["os.language"]
    assert left([anchored(".alarms[label={name}]"), anchored("format")], {"name": "Gym"}) == ["os.language"]
    assert left([anchored(".alarms[*]"), StatePath("os:.language", "os", (parse_path("language").segments))]) == \
        ["apps.clock.format"]
    assert left([anchored(".alarms[0].on")]) == ["os.language", "apps.clock.format"]
    assert left([anchored(".alarms[label=Run]")]) == ["os.language", "apps.clock.alarms[id=a1].on", "apps.clock.format"]
    assert left([anchored(".*")]) == ["os.language"]
