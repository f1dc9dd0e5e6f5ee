"""The frame cache and the incremental painter change no output byte: a phone with them plays a random trace
beside one that composes and paints every frame afresh, and every screenshot, tree and state is compared;
now and then a third phone restored from the state renders it from nothing."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from .fuzzer import Fuzzer
from mobilegym.sim.app import installed_apps
from mobilegym.sim.frame_cache import FrameCache
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import AppError, Phone
from mobilegym.sim.ui.render import Canvas
from mobilegym.sim.ui.repaint import Painter, dirty_box, placed
from mobilegym.sim.ui.theme import LIGHT

APPS = sorted(installed_apps())
WHITE, BLUE, RED = (255, 255, 255), (0, 0, 255), (255, 0, 0)


def _act(phone: Phone, action: Any) -> None:
    """A fuzzer action on the phone (answers and malformed actions are the environment's: skipped)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return
    kind, get = action["type"], action.get
    try:
        if kind in ("tap", "double_tap", "long_press"):
            getattr(phone, kind)(get("x"), get("y"))
        elif kind in ("swipe", "drag"):
            extra = (get("duration_ms"),) if kind == "swipe" else ()
            getattr(phone, kind)(get("x"), get("y"), get("x2"), get("y2"), *extra)
        elif kind == "type":
            if get("x") is not None:
                phone.tap(get("x"), get("y"))
            phone.type_text(get("text"), clear=bool(get("clear")))
        elif kind == "key":
            phone.key(get("key"))
        elif kind == "open_app":
            phone.open_app(get("app"))
        elif kind == "wait":
            phone.wait(get("seconds"))
    except (ValueError, TypeError, AppError):
        pass  # refused like the environment refuses it; both phones refuse alike


def _observe(phone: Phone) -> tuple[bytes, str, dict]:
    return phone.screenshot().tobytes(), phone.a11y_xml(), phone.get_state()


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("scale,steps", [(0.1, 40), (1.0, 12)], ids=["rl", "full"])
def test_cached_frames_equal_fresh_frames_in_every_app(scale: float, steps: int, dark: bool) -> None:
    cached = SimDevice(render_scale=scale)
    fresh = SimDevice(render_scale=scale)
    fresh.frame_cache = FrameCache(reuse=False)
    assert cached.frame_cache.reuse
    reborn = SimDevice(render_scale=scale)
    for index, app in enumerate(APPS):
        for phone in (cached, fresh):
            phone.reset_state(index)
            phone.set_state({"apps": {"settings": {"dark_mode": dark}}})
            phone.open_app(app)
        fuzzer = Fuzzer(seed=index, apps=APPS, long_text=0)
        for step in range(steps):
            ours, theirs = _observe(cached), _observe(fresh)
            assert ours[0] == theirs[0], f"{app} step {step}: screenshot differs"
            assert ours[1] == theirs[1], f"{app} step {step}: tree differs"
            assert ours[2] == theirs[2], f"{app} step {step}: state differs"
            if step % 10 == 9:  # the same state rendered from nothing
                reborn.restore(cached.snapshot())
                assert _observe(reborn)[:2] == ours[:2], f"{app} step {step}: a fresh phone renders otherwise"
            action = fuzzer.action(ours[1])
            _act(cached, action)
            _act(fresh, action)


def test_a_tap_on_nothing_keeps_the_frame_and_a_real_change_drops_it() -> None:
    phone = SimDevice(render_scale=0.1, apps=["settings", "clock"], world="canonical")
    phone.open_app("settings")
    frame, shot, xml = phone.frame(), phone.screenshot(), phone.a11y_xml()
    phone.tap(1079, 2399 - 48 * 3 - 2)  # empty space above the navigation bar: nothing happens
    assert phone.frame() is frame and phone.a11y_xml() is xml
    assert np.array_equal(phone.screenshot(), shot)
    phone.key("back")  # to the launcher
    assert phone.frame() is not frame


def test_a_screen_that_reads_the_raw_clock_is_rebuilt_each_input() -> None:
    phone = SimDevice(render_scale=0.1, apps=["clock"], world="canonical")
    phone.launch("clock", "/stopwatch")
    frame = phone.frame()
    phone.tap(1079, 2399 - 48 * 3 - 2)
    assert phone.frame() is not frame  # the stopwatch screen read time_ms


def test_the_minute_changing_drops_the_frame() -> None:
    phone = SimDevice(render_scale=0.1, apps=["settings"], world="canonical")
    frame = phone.frame()
    phone.wait(1)
    assert phone.frame() is frame
    phone.wait(60)
    assert phone.frame() is not frame


def test_a_heads_up_notification_goes_when_its_time_is_over_on_a_cached_phone() -> None:
    cached, fresh = (SimDevice(render_scale=0.1, apps=["settings", "messages", "contacts"], world="canonical")
                     for _ in range(2))
    fresh.frame_cache = FrameCache(reuse=False)
    for phone in (cached, fresh):
        phone.open_app("settings")
        phone.notify("messages", "Ann", "See you at 6", heads_up=True)
    for _ in range(7):  # a heads-up shows for 5 s of phone time, within one minute
        assert _observe(cached)[:2] == _observe(fresh)[:2]
        for phone in (cached, fresh):
            phone.wait(1)
    assert "expandableNotificationRow" not in cached.a11y_xml()


def test_screenshots_never_share_memory_with_the_cache() -> None:
    phone = SimDevice(render_scale=0.1, apps=["settings"], world="canonical")
    first = phone.screenshot()
    first[:] = 0
    assert phone.screenshot().any()


def _canvas() -> Canvas:
    return Canvas(60, 40, 1.0, WHITE)


def test_dirty_box_covers_the_changed_items_under_their_clips() -> None:
    canvas = _canvas()
    old = [("rect", 0, 0, 10, 10, BLUE, 0), ("clip", 20, 0, 10, 10), ("rect", 15, 0, 20, 5, RED, 0), ("unclip",)]
    same = placed(canvas, old)
    assert dirty_box(canvas, same, placed(canvas, list(old))) is None
    moved_clip = [old[0], ("clip", 22, 0, 10, 10), old[2], old[3]]  # the rect itself is unchanged
    assert dirty_box(canvas, same, placed(canvas, moved_clip)) == (20, 0, 32, 5)
    recoloured = [("rect", 0, 0, 10, 10, RED, 0), *old[1:]]
    assert dirty_box(canvas, same, placed(canvas, recoloured)) == (0, 0, 10, 10)


@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_painter_repaints_a_part_exactly(scale: float) -> None:
    base = [("rect", 0, 0, 60, 40, LIGHT.background, 0), ("rect", 4, 4, 30, 20, BLUE, 6),
            ("clip", 0, 10, 60, 20), ("text", 2, 8, "Hello", 14, RED, True), ("unclip",),
            ("shade", 0, 0, 60, 20)]
    changes = [
        [*base[:3], ("text", 2, 8, "Help", 14, RED, True), *base[4:]],
        [base[0], ("rect", 6, 4, 30, 20, BLUE, 6), *base[2:]],
        base[:-1],
        [*base, ("rect", 50, 30, 9, 9, RED, 0)],
    ]
    for changed in changes:
        painter = Painter()
        size = (round(60 * scale), round(40 * scale))
        painter.paint(base, size, scale, LIGHT.background)
        ours = painter.paint(changed, size, scale, LIGHT.background)
        full = Canvas(*size, scale, LIGHT.background)
        full.draw(changed)
        assert np.array_equal(ours, full.pixels()), changed


def test_painting_over_an_image_in_place_keeps_every_recent_lists_pixels() -> None:
    # each change is painted over the previous image in place, and a full change on the spare image of a list
    # that left the recent ones: every list painted again gets exactly its own pixels back
    size, scale = (60, 40), 1.0
    lists = [[("rect", 0, 0, 60, 40, LIGHT.background, 0), ("rect", 2 + 3 * n, 4, 20, 10, BLUE, 4),
              ("text", 2, 20, f"Row {n}", 12, RED, False)] for n in range(6)]
    lists.append([("rect", 0, 0, 60, 40, RED, 0)])  # a whole new screen: painted afresh
    painter = Painter(images=3)
    first = {}
    for n, items in enumerate([*lists, *lists[::-1], *lists]):
        got = painter.paint(items, size, scale, LIGHT.background)
        full = Canvas(*size, scale, LIGHT.background)
        full.draw(items)
        assert np.array_equal(got, full.pixels()), n
        first.setdefault(id(items), got.copy())
        assert np.array_equal(got, first[id(items)])
