"""Every screen is drawable and legible: in English and Chinese, light and dark theme, each drawn character has a
glyph in the font chosen for it, text stays inside its view, text contrast meets WCAG AA, and list rows and section
headers keep Android's 16 dp margin from the screen edge."""
from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Iterator
from urllib.parse import urlencode

import pytest
from fontTools.ttLib import TTCollection, TTFont

from mobilegym.sim import ui
from mobilegym.sim.ui import fonts
from mobilegym.sim.app import installed_apps
from mobilegym.sim.clock import from_ms
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone, ScreenError
from mobilegym.sim.ui.theme import Color

SLACK = 0.75  # dp of rounding and glyph overhang allowed
MARGIN = 16  # dp from the screen edge to the text of a list row or a section header (Material 3)
LIST_ITEM_MARGIN = 12  # ui.ListItem's padding: the toolkit's rows start their text here
APPS = sorted(installed_apps())
SHELL = ("launcher", "recents")


# --- the screens ---------------------------------------------------------------------------------------------------

def _phone(language: str, dark: bool) -> Phone:
    phone = SimDevice(language=language)
    phone.reset_state(0)
    phone.set_state({"apps": {"settings": {"dark_mode": dark}}})
    return phone


def _routes(phone: Phone, app_id: str) -> Iterator[str]:
    """Every screen of the app, each with the first id (or today's date) that makes it show something."""
    app = installed_apps([app_id])[app_id]
    state = phone.get_state()["apps"][app_id]
    ids = [items[0]["id"] for items in state.values()
           if isinstance(items, list) and items and isinstance(items[0], dict) and "id" in items[0]]
    today = from_ms(phone.time_ms()).date().isoformat()
    saved = phone.snapshot()
    for path in sorted(app.screens):
        for params in [{}, *({"id": i} for i in ids), {"date": today}]:
            route = f"{path}?{urlencode(params)}" if params else path
            phone.restore(saved)
            try:
                phone.launch(app_id, route)
            except ScreenError:
                continue
            yield route
            break


def _screens(phone: Phone, target: str) -> Iterator[str]:
    """Put each screen of ``target`` (an app id, "launcher" or "recents") on ``phone``; yield its name."""
    if target == "launcher":
        yield "launcher"
    elif target == "recents":
        for app_id in APPS[:3]:
            phone.open_app(app_id)
        phone.key("recent")
        yield "recents"
    else:
        yield from (f"{target} {route}" for route in _routes(phone, target))


def _leaves(root: ui.View) -> Iterator[ui.View]:
    """The views on screen that paint themselves (no children), as the tree export sees them."""
    children = root.visible_children() if isinstance(root, ui.ScrollList) else root.children
    if not children:
        yield root
    for child in children:
        yield from _leaves(child)


def _drawn_text(phone: Phone) -> Iterator[tuple[ui.View, tuple]]:
    """Each text item on screen with the leaf view that draws it."""
    frame = phone.frame()
    for window in frame.windows:
        for leaf in _leaves(window.root):
            out: list[tuple] = []
            leaf.paint(out, frame.env)
            yield from ((leaf, item) for item in out if item[0] == "text")


CASES = [(target, language, dark) for target in [*APPS, *SHELL] for language in ("en", "zh") for dark in (False, True)]
IDS = [f"{t}-{lang}-{'dark' if dark else 'light'}" for t, lang, dark in CASES]


# --- glyphs --------------------------------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _cmap(path: str) -> frozenset[int]:
    """The code points the face drawn from ``path`` (read by fontTools) maps to a glyph."""
    font = TTCollection(path).fonts[fonts.font_index(path)] if path.endswith(".ttc") else TTFont(path)
    return frozenset(code for code, glyph in font.getBestCmap().items() if glyph != ".notdef")


def _needs_glyph(char: str) -> bool:
    return unicodedata.category(char) not in ("Cc", "Cf", "Zs", "Zl", "Zp")


def missing_glyphs(text: str, bold: bool) -> list[str]:
    """The characters of ``text`` that the font chosen for it has no glyph for."""
    cmap = _cmap(fonts.font_path(text, bold))
    return [c for c in text if _needs_glyph(c) and ord(c) not in cmap]


def _check_glyphs_and_bounds(phone: Phone, where: str) -> list[str]:
    problems = []
    for view, (_, x, y, text, size, _, bold) in _drawn_text(phone):
        missing = missing_glyphs(text, bold)
        if missing:
            problems.append(f"{where}: {text!r} has no glyph for {[f'U+{ord(c):04X}' for c in missing]}")
        vx, vy, vw, vh = view.frame
        right = x + fonts.text_width(text, size, bold)
        if x < vx - SLACK or right > vx + vw + SLACK:
            problems.append(f"{where}: {text!r} spans x {x:.1f}..{right:.1f} outside its "
                            f"{type(view).__name__} at x {vx:.1f}..{vx + vw:.1f}")
        if y < vy - size * 0.25 - SLACK or y + size > vy + vh + size * 0.25 + SLACK:
            problems.append(f"{where}: {text!r} spans y {y:.1f}..{y + size:.1f} outside its "
                            f"{type(view).__name__} at y {vy:.1f}..{vy + vh:.1f}")
    return problems


@pytest.mark.parametrize("target, language, dark", CASES, ids=IDS)
def test_every_drawn_character_has_a_glyph_and_stays_in_its_view(target: str, language: str, dark: bool) -> None:
    phone = _phone(language, dark)
    problems = [p for where in _screens(phone, target) for p in _check_glyphs_and_bounds(phone, where)]
    assert not problems, "\n".join(problems[:20])


def test_the_glyph_check_finds_a_missing_glyph() -> None:
    assert missing_glyphs("\U0001fbf0 a", False) == ["\U0001fbf0"]  # a segmented digit no installed font has
    assert missing_glyphs("a b\u200bc", True) == []


@pytest.mark.parametrize("text", ["a", "时钟", "\u23f0"])
@pytest.mark.parametrize("bold", [False, True])
def test_the_font_coverage_agrees_with_fonttools(text: str, bold: bool) -> None:
    path = fonts.font_path(text, bold)
    assert fonts.coverage(path) == _cmap(path)


def test_a_line_falls_back_to_a_font_that_has_all_its_characters() -> None:
    assert fonts.font_path("Great \U0001f44d", False) == fonts.font_path("\u23f0", False) != fonts.font_path("a", False)
    assert fonts.font_path("时钟 Wi-Fi", False) == fonts.font_path("时钟", False)
    assert fonts.font_path("Café", True) == fonts.font_path("a", True)


def test_bold_cjk_is_drawn_in_a_bold_face() -> None:
    regular, bold = fonts.font_path("时钟", False), fonts.font_path("时钟", True)
    assert regular != bold and "Bold" in bold, (regular, bold)


# --- contrast ------------------------------------------------------------------------------------------------------

def _luminance(color: Color) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = map(channel, color)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Color, b: Color) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _required(view: ui.View, size: float, bold: bool) -> float:
    """WCAG AA: 4.5:1 for text, 3:1 for large text (18 pt, or 14 pt bold) and for icons (graphical objects)."""
    if isinstance(view, (ui.Icon, ui.Image)):
        return 3.0
    return 3.0 if size >= 24 or (bold and size >= 18.66) else 4.5


def _backgrounds(items: list[tuple], background: Color) -> Iterator[tuple[tuple, Color]]:
    """Each text item with the colour under the middle of its first line (the last shape drawn there)."""
    layers: list[tuple[float, float, float, float, Color]] = []
    for item in items:
        if item[0] == "rect":
            _, x, y, w, h, color, _ = item
            layers.append((x, y, x + w, y + h, color))
        elif item[0] == "shade":
            background = tuple(v * 3 // 5 for v in background)
            layers = [(*box, tuple(v * 3 // 5 for v in color)) for *box, color in layers]
        elif item[0] == "text":
            _, x, y, text, size, _, bold = item
            cx, cy = x + fonts.text_width(text, size, bold) / 2, y + size / 2
            under = next((c for x0, y0, x1, y1, c in reversed(layers) if x0 <= cx < x1 and y0 <= cy < y1), background)
            yield item, under


def _check_contrast(phone: Phone, where: str) -> list[str]:
    owners = {item: view for view, item in _drawn_text(phone)}
    frame = phone.frame()
    problems = []
    for item, under in _backgrounds(frame.items(), frame.env.theme.background):
        _, _, _, text, size, color, bold = item
        view = owners.get(item)
        if view is None or not view.enabled:  # WCAG exempts inactive controls
            continue
        ratio, need = contrast(color, under), _required(view, size, bold)
        if ratio < need:
            problems.append(f"{where}: {text!r} ({type(view).__name__}) {color} on {under}: {ratio:.2f} < {need}")
    return problems


@pytest.mark.parametrize("target, language, dark", [c for c in CASES if c[1] == "en"],
                         ids=[i for i, c in zip(IDS, CASES) if c[1] == "en"])
def test_text_contrast_meets_wcag_aa(target: str, language: str, dark: bool) -> None:
    phone = _phone(language, dark)
    problems = [p for where in _screens(phone, target) for p in _check_contrast(phone, where)]
    assert not problems, "\n".join(problems[:20])


def test_contrast_ratio() -> None:
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert contrast((118, 118, 118), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)
    items = [("rect", 0, 0, 100, 100, (255, 255, 255), 0), ("shade", 0, 0, 360, 800),
             ("text", 10, 10, "a", 14, (0, 0, 0), False)]
    assert list(_backgrounds(items, (0, 0, 0)))[0][1] == (153, 153, 153)


# --- margins -------------------------------------------------------------------------------------------------------

def _margins(root: ui.View) -> dict[int, float]:
    """The left margin each view's text needs, by view id: ``MARGIN`` for what a scrolling list holds (section
    headers, radio and switch rows), ``LIST_ITEM_MARGIN`` inside a ``ui.ListItem`` (the toolkit's row padding)."""
    found: dict[int, float] = {}

    def walk(view: ui.View, need: float | None) -> None:
        if isinstance(view, ui.ListItem):
            need = LIST_ITEM_MARGIN
        elif isinstance(view, ui.ScrollList) and need is None:
            need = MARGIN
        if need is not None:
            found[id(view)] = need
        for child in view.visible_children() if isinstance(view, ui.ScrollList) else view.children:
            walk(child, need)
    walk(root, None)
    return found


@pytest.mark.parametrize("app_id", APPS)
def test_list_rows_and_section_headers_keep_a_margin(app_id: str) -> None:
    phone = _phone("en", False)
    problems = []
    for where in _screens(phone, app_id):
        frame = phone.frame()
        needs = _margins(frame.content)
        for view, item in _drawn_text(phone):
            need = needs.get(id(view))
            if need is None or isinstance(view, (ui.Icon, ui.Image, ui.Button, ui.Chip, ui.TextField)):
                continue
            if item[1] < need - SLACK:
                problems.append(f"{where}: {item[3]!r} ({type(view).__name__}) starts at x {item[1]:.1f} < {need}")
    assert not problems, "\n".join(problems[:20])
