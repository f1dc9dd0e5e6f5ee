"""InitialState: the set-up document kept frozen for checks and the side-effect diff."""
from __future__ import annotations

import copy

from mobilegym.judge.state.diff import diff
from mobilegym.judge.state.initial import InitialState

DOC = {"os": {"foreground": "launcher", "time_ms": 5},
       "apps": {"a": {"items": [{"id": 1, "on": True}], "name": "x"}, "b": {"n": 1}, "c": {"v": 2.5}}}


def test_copies_are_private_and_equal_to_the_document() -> None:
    initial = InitialState(DOC)
    apps, os_state = initial.copy()
    assert apps == DOC["apps"] and os_state == DOC["os"]
    apps["a"]["items"].clear()
    os_state["foreground"] = "settings"
    assert initial.copy() == (DOC["apps"], DOC["os"])


def test_later_changes_to_the_source_document_do_not_leak_in() -> None:
    doc = copy.deepcopy(DOC)
    initial = InitialState(doc)
    doc["apps"]["a"]["name"] = "changed"
    assert initial.copy()[0]["a"]["name"] == "x"


def test_shared_view_loads_each_app_once_on_first_read() -> None:
    initial = InitialState(DOC)
    apps, os_state = initial.shared()
    assert set(apps) == {"a", "b", "c"} and len(apps) == 3 and os_state == DOC["os"]
    assert apps._loaded == {}  # nothing thawed yet
    assert apps["b"] == {"n": 1} and set(apps._loaded) == {"b"}
    assert apps["b"] is apps["b"] and initial.shared()[0] is apps


def test_changed_parts_keep_only_the_apps_that_differ() -> None:
    initial = InitialState(DOC)
    doc = copy.deepcopy(DOC)
    doc["apps"]["a"]["items"][0]["on"] = False
    doc["apps"]["c"]["v"] = 2  # equal as numbers (2 != 2.5 here), but check types too below
    del doc["apps"]["b"]
    doc["apps"]["new"] = {"k": 1}
    before, after = initial.changed_parts(doc)
    assert set(before["apps"]) == {"a", "b", "c"} and set(after["apps"]) == {"a", "c", "new"}
    assert before["os"] == after["os"] == DOC["os"]
    full = diff(DOC, doc)
    assert diff(before, after) == full and full  # the restricted documents diff to every change


def test_changed_parts_see_type_changes_that_compare_equal() -> None:
    initial = InitialState({"os": {}, "apps": {"a": {"flag": True}, "b": {"n": 1}}})
    before, after = initial.changed_parts({"os": {}, "apps": {"a": {"flag": 1}, "b": {"n": 1}}})
    assert set(before["apps"]) == set(after["apps"]) == {"a"}


def test_values_marshal_refuses_are_kept_as_copies() -> None:
    class Opaque:
        def __eq__(self, other: object) -> bool:
            return isinstance(other, Opaque)

    doc = {"os": {}, "apps": {"odd": {"thing": Opaque()}, "plain": {"n": 1}}}
    initial = InitialState(doc)
    apps, _ = initial.copy()
    assert apps["odd"]["thing"] == Opaque() and apps["odd"]["thing"] is not doc["apps"]["odd"]["thing"]
    before, after = initial.changed_parts(doc)
    assert set(before["apps"]) == {"odd"}  # cannot prove it unchanged: handed to the diff
