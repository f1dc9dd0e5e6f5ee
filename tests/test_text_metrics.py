"""The fast text paths give what Pillow gives: widths of plain lines (ASCII and common punctuation) summed from advances and kerning equal raqm's
shaping, and line masks taken from the face equal ImageDraw.text's pixels."""
from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw

from mobilegym.sim.ui import fonts, render
from mobilegym.sim.worldgen import World
from mobilegym.sim.app import installed_apps, load_app

PRINTABLE = [chr(code) for code in range(32, 127)] + list(fonts._PLAIN_EXTRA)


def _shaped_width(text: str, size: float, bold: bool) -> float:
    """Pillow's raqm layout of the whole line, as measured before the fast path."""
    return fonts.face(text, bold, fonts._REFERENCE_PX).getlength(fonts.single_line(text)) * size / fonts._REFERENCE_PX


def _world_texts() -> list[str]:
    """Every string of two generated worlds' app data (names, titles, addresses, messages...)."""
    out: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for seed in (0, 1):
        world = World(seed, "en", load_app)
        for app_id in installed_apps():
            walk(world.app_state(app_id))
    return [text[:fonts.LINE_CHARS] for text in dict.fromkeys(out) if text]


@pytest.mark.parametrize("bold", [False, True])
def test_plain_widths_equal_raqm_on_world_texts(bold: bool) -> None:
    texts = _world_texts()
    assert len(texts) > 1000
    fast = [t for t in texts if fonts._plain(bold).fullmatch(t) and fonts._LIGATURES.search(t) is None]
    assert len(fast) > len(texts) / 2  # the fast path is the common one
    for text in texts:
        assert fonts._measure(text, 14, bold) == _shaped_width(text, 14, bold), text


@pytest.mark.parametrize("bold", [False, True])
def test_plain_widths_equal_raqm_on_random_lines(bold: bool) -> None:
    rng = random.Random(bold)
    for _ in range(3000):
        text = "".join(rng.choice(PRINTABLE) for _ in range(rng.randint(1, 40)))
        size = rng.choice([10, 12.5, 14, 22])
        assert fonts._measure(text, size, bold) == _shaped_width(text, size, bold), text


def test_ligatures_and_other_text_are_shaped_by_raqm() -> None:
    # "ff" is one glyph in DejaVu: the sum of the characters would be wrong, so such lines are shaped
    ligature = "Stuff. Afloat"
    assert fonts._LIGATURES.search(ligature)
    metrics = fonts._PLAIN_METRICS[False]
    summed = sum(metrics[c] for c in ligature) + sum(metrics[a + b] for a, b in zip(ligature, ligature[1:]))
    assert summed != _shaped_width(ligature, fonts._REFERENCE_PX, False)
    for text in (ligature, "Tab\there", "天气 Weather", "Café", "⏰ Alarm"):
        assert fonts._measure(text, 14, False) == _shaped_width(text, 14, False)


def _drawn_glyphs(text: str, px: int, bold: bool) -> tuple[bytes | None, tuple[int, int] | None, int, int]:
    """The line as ImageDraw.text draws it into a mask of its ink box, raised by ``fonts.rise`` (every face on
    DejaVu's ascent)."""
    face = fonts.face(text, bold, px)
    line = fonts.single_line(text)
    left, top, right, bottom = face.getbbox(line)
    if right <= left or bottom <= top:
        return None, None, 0, 0
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), line, font=face, fill=255)
    return mask.tobytes(), mask.size, left, top - fonts.rise(text, bold, px)


def test_only_taller_faces_are_raised() -> None:
    assert fonts.rise("Harbor Tower", False, 40) == 0
    assert fonts.rise("天气 Weather", False, 40) > 0


@pytest.mark.parametrize("px", [5, 7, 13, 40])
def test_line_masks_equal_imagedraw_text(px: int) -> None:
    rng = random.Random(px)
    pool = PRINTABLE + list("中文字体天气日历你好") + ["⏰", "👍", "é", "\u0301", "\u200b", "\n", "ש"]
    texts = ["", " ", "\u200b", "Harbor Tower", "Office", "天气 Weather", "👍"]
    texts += ["".join(rng.choice(pool) for _ in range(rng.randint(1, 20))) for _ in range(300)]
    for text in texts:
        for bold in (False, True):
            mask, left, top = render._draw_glyphs(text, px, bold)
            got = (None, None, 0, 0) if mask is None else (mask.tobytes(), mask.size, left, top)
            assert got == _drawn_glyphs(text, px, bold), (text, bold)
