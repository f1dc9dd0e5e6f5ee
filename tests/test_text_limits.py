"""What text costs is bounded whatever an app holds or an agent types: every string shaped is at most
LINE_CHARS long, a text view lays out at most MAX_LINES lines with a few measurements each, lines of
random script soup skip raqm, and every cache stays within its bound after many distinct strings.
Costs are counted (shaper calls, string lengths, cache sizes), never timed."""
from __future__ import annotations

import threading
import xml.etree.ElementTree as ET
from typing import Iterator

import pytest
from PIL import ImageFont

from .fuzzer import Fuzzer
from mobilegym.sim import ui
from mobilegym.sim.ui import fonts, render
from mobilegym.sim.ui.lru import ByteLRU
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone

PATHOLOGICAL = {
    "zero-width": "\u200b" * 10_000,
    "combining": "a" + "\u0301" * 9_999,
    "CJK": "中" * 10_000,
    "one word": "w" * 10_000,
    "words": "hello world " * 833,
    "script soup": "\u200b\u0301中a" * 2_500,
    "CJK and Latin": "中a" * 5_000,
    "Hebrew and Latin": "אa" * 5_000,
    "CJK words": "中文 a " * 2_000,
    "breaks": "\n" * 10_000,
    "fuzz": Fuzzer(9, [], long_text=1.0).text(),  # 8 random characters repeated, as the fuzzer types
}


class Shaped:
    """Every string Pillow measured or laid out for drawing while active."""

    def __init__(self) -> None:
        self.lengths: list[int] = []

    def __len__(self) -> int:
        return len(self.lengths)

    @property
    def longest(self) -> int:
        return max(self.lengths, default=0)


@pytest.fixture
def shaped(monkeypatch: pytest.MonkeyPatch) -> Iterator[Shaped]:
    record = Shaped()
    for name in ("getlength", "getbbox", "getmask2"):
        original = getattr(ImageFont.FreeTypeFont, name)

        def counting(self: ImageFont.FreeTypeFont, text: str, *args: object, _original=original, **kwargs: object):
            record.lengths.append(len(text))
            return _original(self, text, *args, **kwargs)

        monkeypatch.setattr(ImageFont.FreeTypeFont, name, counting)
    yield record


def _greedy(text: str, width: float) -> list[str]:
    """The reference: one measurement per word (per character for CJK), the longest line that fits."""
    wide = fonts._is_wide(text)
    lines, current = [], ""
    for token in (list(text) if wide else text.split(" ")):
        candidate = f"{current}{'' if wide else ' '}{token}" if current else token
        if current and fonts.text_width(candidate, 15) > width:
            lines.append(current)
            current = token
        else:
            current = candidate
    return [fonts.ellipsize(line, 15, False, width) for line in [*lines, current]]


# wrapping ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "The quick brown fox jumps over the lazy dog near the riverbank at dawn",
    "  leading spaces, double  spaces and a trailing one ",
    "a supercalifragilisticexpialidociousword that cannot fit on one line at all",
    "星期三早上七点半的闹钟提醒我去公园跑步然后回家吃早饭再去上班",
    "x",
])
@pytest.mark.parametrize("width", [40.0, 120.0, 300.0])
def test_the_galloping_wrap_is_the_greedy_wrap(text: str, width: float) -> None:
    assert fonts.wrap(text, 15, False, width, None) == _greedy(text, width)


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
def test_long_text_shapes_only_short_strings_a_bounded_number_of_times(name: str, shaped: Shaped) -> None:
    text = PATHOLOGICAL[name]
    for max_lines in (None, 1, 3):
        lines = fonts.wrap(text, 15, False, 300, max_lines)
        assert 1 <= len(lines) <= (fonts.MAX_LINES if max_lines is None else max_lines)
        assert all(len(line) <= fonts.LINE_CHARS for line in lines)
    fonts.ellipsize(text, 15, True, 200)
    fonts.natural_width(text, 15)
    fonts.text_width(text, 15)
    assert shaped.longest <= fonts.LINE_CHARS
    # a few measurements per line (a galloping search), not one per word or character
    assert len(shaped) <= 6 * fonts.MAX_LINES


def test_an_unlimited_text_shows_at_most_max_lines_and_says_it_was_cut() -> None:
    lines = fonts.wrap("line\n" * 500, 15, False, 300, None)
    assert len(lines) == fonts.MAX_LINES
    assert lines[-1].endswith("…") and lines[0] == "line"


def test_a_word_longer_than_a_line_is_cut_with_an_ellipsis() -> None:
    word = "\u200b" * (fonts.LINE_CHARS * 3)  # zero width: it would fit, but no line holds it
    lines = fonts.wrap(f"{word} next", 15, False, 300, None)
    assert lines == ["\u200b" * (fonts.LINE_CHARS - 1) + "…", "next"]
    assert fonts.ellipsize(word, 15, False, 300) == lines[0]


def test_long_text_is_not_a_key_of_the_count_bounded_caches() -> None:
    before = (fonts._cached_width.cache_info().currsize, fonts._wrap.cache_info().currsize)
    for name in ("CJK and Latin", "words", "zero-width"):
        fonts.text_width(PATHOLOGICAL[name], 15)
        fonts.ellipsize(PATHOLOGICAL[name] + "x", 15, False, 100)
    assert fonts._cached_width.cache_info().currsize == before[0]
    assert fonts._wrap.cache_info().currsize == before[1]


# engines -----------------------------------------------------------------------------------
@pytest.mark.parametrize("text, runs", [
    ("plain ASCII text", 1), ("会议 meeting 在 3 点", 3), ("中a" * 16, 32), ("\u200b\u0301 1.", 0),
    ("\ue000\ue001", 1),
])
def test_script_runs_counts_changes_of_script_among_letters(text: str, runs: int) -> None:
    assert fonts.script_runs(text) == runs


def test_script_soup_skips_raqm_and_language_does_not() -> None:
    assert fonts.face("会议 meeting 在 3 点", False, 20).layout_engine == ImageFont.Layout.RAQM
    assert fonts.face("Shalom שלום", False, 20).layout_engine == ImageFont.Layout.RAQM
    assert fonts.face("中a" * 16, False, 20).layout_engine == ImageFont.Layout.BASIC


# the phone ---------------------------------------------------------------------------------
def _contact_notes_phone(notes: str) -> Phone:
    phone = SimDevice(apps=["contacts", "settings"], world="canonical", render_scale=0.25)
    contacts = phone.get_state()["apps"]["contacts"]["contacts"]
    contacts[0]["notes"] = notes
    phone.set_state({"apps": {"contacts": {"contacts": contacts}}})
    phone.launch("contacts", f"/contact?id={contacts[0]['id']}")
    return phone


@pytest.mark.parametrize("name", ["script soup", "CJK and Latin", "fuzz", "zero-width", "breaks"])
def test_a_screen_showing_long_text_lays_out_and_draws_within_bounds(name: str, shaped: Shaped) -> None:
    phone = _contact_notes_phone(PATHOLOGICAL[name])
    phone.screenshot()
    shown = [v for v in phone.frame().content.walk() if isinstance(v, ui.Text) and v.rid == "notes"]
    assert shown and len(shown[0]._lines) <= fonts.MAX_LINES
    assert shaped.longest <= fonts.LINE_CHARS
    assert len(shaped) <= 8 * fonts.MAX_LINES  # layout and drawing of the whole screen, caches cold
    nodes = ET.fromstring(phone.a11y_xml().encode("utf-8")).iter("node")
    notes = next(n for n in nodes if n.get("resource-id", "").endswith("notes"))
    assert len(notes.get("text")) == len(PATHOLOGICAL[name])  # the tree still has all of it


def test_typing_ten_thousand_characters_again_and_again_stays_bounded(shaped: Shaped) -> None:
    phone = SimDevice(apps=["contacts", "settings"], world="canonical", render_scale=0.25)
    phone.launch("contacts", "/edit")
    field = next(v for v in phone.frame().content.walk() if isinstance(v, ui.TextField))
    x, y, w, h = field.frame
    phone.tap(int((x + w / 2) * phone.density), int((y + h / 2) * phone.density))
    for _ in range(5):  # the field grows to 50,000 characters
        before = len(shaped)
        phone.type_text(PATHOLOGICAL["fuzz"])
        phone.screenshot()
        phone.a11y_xml()
        assert len(shaped) - before <= 8 * fonts.MAX_LINES
    assert shaped.longest <= fonts.LINE_CHARS


def test_the_renderer_draws_no_more_than_a_line_holds() -> None:
    long_item = ("text", 0, 0, "x" * 5_000, 14, (0, 0, 0), False)
    cut_item = ("text", 0, 0, "x" * fonts.LINE_CHARS, 14, (0, 0, 0), False)
    a = render.Canvas(400, 40, 1.0, (255, 255, 255)).draw([long_item])
    b = render.Canvas(400, 40, 1.0, (255, 255, 255)).draw([cut_item])
    assert a.tobytes() == b.tobytes()


# caches ------------------------------------------------------------------------------------
def test_caches_stay_within_their_bounds_after_many_distinct_strings(monkeypatch: pytest.MonkeyPatch) -> None:
    fuzzer = Fuzzer(11, [])
    texts = [f"{i} {fuzzer.text()}"[:fonts.LINE_CHARS] for i in range(fonts.WIDTH_CACHE + 500)]
    for text in texts:
        fonts.text_width(text, 14)
    assert fonts._cached_width.cache_info().currsize == fonts.WIDTH_CACHE  # full, and no more
    for text in texts[:fonts.WRAP_CACHE + 100]:
        fonts.wrap(text, 14, False, 200, 2)
    assert fonts._wrap.cache_info().currsize == fonts.WRAP_CACHE
    monkeypatch.setattr(render._GLYPHS, "budget", 1 << 20)  # small bounds, reached by a few hundred lines
    monkeypatch.setattr(render._GLYPHS, "max_items", 300)
    canvas = render.Canvas(1080, 200, 3.0, (255, 255, 255))
    for index, text in enumerate(texts[:1500]):
        canvas.draw([("text", 0, 0, text[:60], 10 + index % 7, (0, 0, 0), index % 2 == 0)])
        assert render._GLYPHS.nbytes <= 1 << 20 and len(render._GLYPHS) <= 300
    assert render._GLYPHS.nbytes > (1 << 20) * 0.9 or len(render._GLYPHS) == 300  # full, and no more
    assert fonts.font.cache_info().currsize <= fonts.FONT_CACHE
    for index in range(20):
        fonts.wrap(PATHOLOGICAL["words"][index:], 15, False, 300, None)
    assert fonts._LONG_WRAPS.nbytes <= fonts.LONG_WRAP_BYTES


def test_byte_lru_drops_the_least_recently_used_and_never_keeps_an_oversized_value() -> None:
    made: list[str] = []

    def make(key: str, size: int):
        return lambda: made.append(key) or "v" * size

    cache: ByteLRU[str, str] = ByteLRU(10, lambda _, value: len(value))
    assert cache.get("a", make("a", 4)) == "vvvv" and cache.get("b", make("b", 4)) == "vvvv"
    cache.get("a", make("a", 4))  # a is now the most recent
    cache.get("c", make("c", 4))  # 12 bytes: b goes
    assert len(cache) == 2 and cache.nbytes == 8
    cache.get("a", make("a", 4))
    cache.get("b", make("b", 4))
    assert made == ["a", "b", "c", "b"]
    cache.get("huge", make("huge", 11))
    cache.get("huge", make("huge", 11))
    assert made.count("huge") == 2 and "huge" not in cache._items and cache.nbytes <= 10
    cache.clear()
    assert len(cache) == 0 and cache.nbytes == 0
    counted: ByteLRU[int, str] = ByteLRU(100, lambda _, value: 1, max_items=3)
    for key in range(5):
        counted.get(key, str)
    assert list(counted._items) == [2, 3, 4] and counted.nbytes == 3
    with pytest.raises(ValueError, match="budget"):
        ByteLRU(-1, lambda _, value: 0)
    with pytest.raises(ValueError, match="max_items"):
        ByteLRU(10, lambda _, value: 0, max_items=0)


def test_byte_lru_is_safe_across_threads() -> None:
    cache: ByteLRU[int, bytes] = ByteLRU(64, lambda _, value: len(value))
    errors: list[BaseException] = []

    def hammer(offset: int) -> None:
        try:
            for i in range(5_000):
                assert cache.get((i * 7 + offset) % 50, lambda: b"x" * 8) == b"x" * 8
        except BaseException as exc:  # noqa: BLE001  (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=hammer, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and cache.nbytes <= 64 and cache.nbytes == 8 * len(cache)
