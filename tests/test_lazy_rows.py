"""ui.Rows: a ScrollList builds the rows of a long list only as far as it shows them, and scrolls to the
same places as a list of built rows."""
from __future__ import annotations

import pytest

from mobilegym.sim import ui
from mobilegym.sim.ui.theme import LIGHT

SCREEN = (0.0, 0.0, 360.0, 600.0)


def row(i: int) -> ui.View:
    """Rows of varied heights: every third one has a two-line subtitle."""
    return ui.ListItem(f"Item {i}", subtitle=("a long subtitle " * 8 if i % 3 == 0 else None), rid="item")


def laid_out(children, offset: float = 0.0) -> tuple[ui.ScrollList, ui.LayoutEnv]:
    env = ui.LayoutEnv(LIGHT, scroll={"list": offset})
    view = ui.ScrollList(children, rid="list", pad=8, gap=2)
    view.place(*SCREEN, env)
    return view, env


def shown(view: ui.ScrollList) -> list[tuple[str, tuple[float, float, float, float]]]:
    return [(next(v.text for v in c.walk() if v.text), c.frame) for c in view.visible_children()]


def test_only_the_rows_down_to_the_bottom_of_the_screen_are_built():
    built: list[int] = []

    def build(i: int) -> ui.View:
        built.append(i)
        return row(i)

    view, _ = laid_out(ui.Rows(range(500), build))
    assert 0 < len(built) < 15 and built == list(range(len(built)))
    assert view.scrollable and view.content_height > 500 * 56


@pytest.mark.parametrize("offset", [0.0, 350.0, 1234.5, 5000.0])
def test_lazy_rows_sit_where_built_rows_sit(offset):
    eager, eager_env = laid_out([row(i) for i in range(200)], offset)
    lazy, lazy_env = laid_out(ui.Rows(range(200), row), offset)
    assert shown(lazy) == shown(eager) and lazy_env.scroll == eager_env.scroll


def test_the_end_of_the_list_is_exact():
    """Asked to scroll past the end, the list builds every row and stops where a built list stops."""
    eager, eager_env = laid_out([row(i) for i in range(80)], 10**6)
    lazy, lazy_env = laid_out(ui.Rows(range(80), row), 10**6)
    assert lazy_env.scroll["list"] == eager_env.scroll["list"] > 0
    assert lazy.content_height == eager.content_height
    assert shown(lazy) == shown(eager) and shown(lazy)[-1][0] == "Item 79"


def test_a_short_or_empty_list_does_not_scroll():
    view, env = laid_out(ui.Rows(range(3), row))
    assert not view.scrollable and len(view.children) == 3 and env.scroll["list"] == 0
    view, env = laid_out(ui.Rows([], row))
    assert not view.scrollable and view.children == [] and view.content_height == 16


def test_a_drag_reaches_the_last_row_of_a_long_lazy_list():
    """Dragging by the estimated range, then again, ends on the true last row (the estimate refines)."""
    env = ui.LayoutEnv(LIGHT, scroll={})
    for _ in range(60):
        view = ui.ScrollList(ui.Rows(range(300), row), rid="list", pad=8, gap=2)
        view.place(*SCREEN, env)
        env.scroll["list"] = env.scroll["list"] + 2000  # a long fling: place() clamps at the true end
    view = ui.ScrollList(ui.Rows(range(300), row), rid="list", pad=8, gap=2)
    view.place(*SCREEN, env)
    assert shown(view)[-1][0] == "Item 299" and view.max_offset() == env.scroll["list"]


@pytest.mark.parametrize("lazy", [False, True])
def test_placing_a_list_again_finds_its_visible_rows_again(lazy):
    children = ui.Rows(range(200), row) if lazy else [row(i) for i in range(200)]
    view, env = laid_out(children)
    top = shown(view)
    assert top and view.visible_children() is view.visible_children()  # found once per layout
    env.scroll["list"] = 3000.0
    view.place(*SCREEN, env)
    moved = shown(view)
    assert moved and moved[0][0] != top[0][0]
    assert all(SCREEN[1] - f[3] < f[1] < SCREEN[1] + SCREEN[3] for _, f in moved)
