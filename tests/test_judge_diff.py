"""State diff and side-effect patterns."""
from __future__ import annotations

import pytest

from mobilegym.judge.state.diff import anchor_pattern, diff, parse_pattern, unexpected_changes
from mobilegym.judge.errors import PathError


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


APPS = ("clock", "weather", "messages")
IGNORE = ["os.time_ms", "apps.answer_sheet"]


def left(before, after, patterns, params=None, app="clock"):
    """Paths of the changes the patterns leave uncovered (documents are {app: state})."""
    rooted = [anchor_pattern(p, APPS, app) for p in patterns]
    changes = unexpected_changes({"os": {}, "apps": before}, {"os": {}, "apps": after}, rooted, [], params)
    return [c.path for c in changes]


def test_unexpected_changes_patterns():
    before = {"os": {"time_ms": 1, "language": "en"},
              "apps": {"clock": {"alarms": [{"id": "a1", "label": "Gym", "on": False}], "format": 24},
                       "answer_sheet": {"submitted": False}}}
    after = {"os": {"time_ms": 99, "language": "zh"},
             "apps": {"clock": {"alarms": [{"id": "a1", "label": "Gym", "on": True}], "format": 12},
                      "answer_sheet": {"submitted": True}}}

    def rest(patterns, params=None):
        rooted = [anchor_pattern(p, APPS, "clock") for p in patterns]
        return [c.path for c in unexpected_changes(before, after, rooted, IGNORE, params)]

    assert rest([]) == ["os.language", "apps.clock.alarms[id=a1].on", "apps.clock.format"]
    assert rest([".alarms[id=a1].on", ".format"]) == ["os.language"]
    assert rest([".alarms[label={name}]", "format"], {"name": "Gym"}) == ["os.language"]
    assert rest([".alarms[*]", "os:.language"]) == ["apps.clock.format"]
    assert rest([".alarms[0].on"]) == ["os.language", "apps.clock.format"]
    assert rest([".alarms[label=Run]"]) == ["os.language", "apps.clock.alarms[id=a1].on", "apps.clock.format"]
    assert rest([".alarms[label=Gy]"]) == ["os.language", "apps.clock.alarms[id=a1].on", "apps.clock.format"]
    assert rest([".*"]) == ["os.language"]
    assert rest(["clock.alarms[+]"]) == ["os.language", "apps.clock.alarms[id=a1].on", "apps.clock.format"]


ALARMS = [{"id": "a1", "label": "Gym", "hour": 7}, {"id": "a2", "label": "Run", "hour": 8}]


def with_alarms(*extra):
    return {"clock": {"alarms": ALARMS + list(extra)}}


def new(ident, label="", hour=9):
    return {"id": ident, "label": label, "hour": hour}


def test_a_named_or_marked_item_covers_one_added_item():
    base = with_alarms()
    assert left(base, with_alarms(new("n1", "Yoga")), ["alarms[label={label}]"], {"label": "Yoga"}) == []
    assert left(base, with_alarms(new("n1", "Yoga"), new("n2", "Yoga")), ["alarms[label=Yoga]"]) == \
        ["apps.clock.alarms[id=n2]"]
    every_hour = with_alarms(*(new(f"n{h}", hour=h) for h in range(3)))
    assert left(base, every_hour, ["alarms[hour={hour}]"], {"hour": 1}) == \
        ["apps.clock.alarms[id=n0]", "apps.clock.alarms[id=n2]"]
    assert left(base, every_hour, ["alarms[+]"]) == ["apps.clock.alarms[id=n1]", "apps.clock.alarms[id=n2]"]
    assert left(base, every_hour, ["alarms[+]"] * 3) == []                  # each entry counts on its own
    assert left(base, every_hour, ["alarms[+*]"]) == []
    assert left(base, every_hour, ["alarms[*]"]) == []
    assert left(base, every_hour, ["alarms"]) == []


def test_matching_prefers_the_specific_entry():
    after = with_alarms(new("n1", "Yoga"), new("n2", "Walk"))
    assert left(with_alarms(), after, ["alarms[+]", "alarms[+label=Yoga]"]) == []
    assert left(with_alarms(), after, ["alarms[+label=Yoga]", "alarms[+label=Nap]"]) == ["apps.clock.alarms[id=n2]"]


def test_added_marks_never_cover_pre_existing_items():
    relabelled = {"clock": {"alarms": [{**ALARMS[0], "label": "Lift"}, ALARMS[1]]}}
    assert left(with_alarms(), relabelled, ["alarms[+]"]) == ["apps.clock.alarms[id=a1].label"]
    assert left(with_alarms(), {"clock": {"alarms": ALARMS[1:]}}, ["alarms[+]"]) == ["apps.clock.alarms[id=a1]"]


def test_removed_items():
    none_left = {"clock": {"alarms": []}}
    assert left(with_alarms(), none_left, ["alarms[label=Gym]"]) == ["apps.clock.alarms[id=a2]"]
    assert left(with_alarms(), none_left, ["alarms[-label=Gym]", "alarms[-label=Run]"]) == []
    assert left(with_alarms(), none_left, ["alarms[-]"]) == ["apps.clock.alarms[id=a2]"]
    assert left(with_alarms(), none_left, ["alarms[-*]"]) == []
    assert left(with_alarms(), none_left, ["alarms[-*hour=7]"]) == ["apps.clock.alarms[id=a2]"]
    assert left(with_alarms(), with_alarms(new("n1")), ["alarms[-*]"]) == ["apps.clock.alarms[id=n1]"]


def saved(*cities):
    return {"weather": {"saved": list(cities)}}


@pytest.mark.parametrize("after, patterns, uncovered", [
    (saved("a", "b", "c", "d"), ["saved[+]"], []),
    (saved("d", "a", "b", "c"), ["saved[+]"], []),
    (saved("a", "b", "c", "d", "e"), ["saved[+]"], ["apps.weather.saved"]),      # two added, one allowed
    (saved("a", "b", "c", "d", "e"), ["saved[+]", "saved[+]"], []),
    (saved("a", "b", "c", "d", "e"), ["saved[+*]"], []),
    (saved("a", "b", "d"), ["saved[+]"], ["apps.weather.saved"]),                # one replaced
    (saved("a", "c"), ["saved[-]"], []),
    (saved("c"), ["saved[-]"], ["apps.weather.saved"]),
    (saved("b", "a", "c", "d"), ["saved[+*]"], ["apps.weather.saved"]),          # reordered
    (saved("c"), ["saved[*]"], []),
    (saved("c"), ["saved"], []),
])
def test_lists_of_plain_values(after, patterns, uncovered):
    assert left(saved("a", "b", "c"), after, patterns, app="weather") == uncovered


def test_alternatives_share_one_count():
    thread = {"id": "c1", "address": "1", "messages": [{"id": "m1"}]}
    before = {"messages": {"conversations": [thread]}}
    reply = {**thread, "messages": [*thread["messages"], {"id": "m2"}]}
    fresh = {"id": "c2", "address": "2", "messages": [{"id": "m3"}]}
    send = "messages.conversations[+] | messages.conversations[*].messages[+]"
    assert left(before, {"messages": {"conversations": [reply]}}, [send]) == []
    assert left(before, {"messages": {"conversations": [thread, fresh]}}, [send]) == []
    assert left(before, {"messages": {"conversations": [reply, fresh]}}, [send]) == \
        ["apps.messages.conversations[id=c2]"]
    assert left(before, {"messages": {"conversations": [reply, fresh]}}, [send, send]) == []


def test_pattern_syntax_errors_name_the_pattern():
    for bad, message in [("alarms[+{n}]", "not an index"), ("alarms[+3]", "bad selector"), ("alarms[", "unclosed"),
                         ("", "non-empty"), ("a | ", "non-empty")]:
        with pytest.raises(PathError, match=message):
            parse_pattern(bad)
    assert parse_pattern("alarms[-*date={day.iso}]").alternatives[0].marks == (None, "-*")
    assert parse_pattern("messages[-1].text").alternatives[0].marks == (None, None, None)  # an index
    assert parse_pattern("notes[title='a[+b]']").alternatives[0].marks == (None, None)
    assert [a.text for a in parse_pattern("notes[title='x|y'] | todos[text=a|b]").alternatives] == \
        ["notes[title='x|y']", "todos[text=a|b]"]
