"""Font lookup and resolution-independent text measurement (in dp)."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

_DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
_LATIN = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
_CJK_CANDIDATES = (
    Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
    Path("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"),
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
)
_REFERENCE_PX = 64
# Texts longer than this are measured and wrapped without caching: the caches hold at most
# maxsize x CACHED_CHARS characters, whatever is typed (a 10,000-character word cannot fill memory).
CACHED_CHARS = 256
# Line breaks as str.splitlines knows them; a line handed to the shaper must hold none (raqm fails
# on CR, the information separators, NEL and U+2029).
_BREAKS = re.compile("\r\n|[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def single_line(text: str) -> str:
    """``text`` with every line break as a space: what one line of the shaper can take."""
    return _BREAKS.sub(" ", text) if _BREAKS.search(text) else text


def paragraphs(text: str) -> list[str]:
    """``text`` split at every kind of line break."""
    return _BREAKS.split(text)


def _is_wide(text: str) -> bool:
    return any(ord(ch) >= 0x2E80 and not 0x1F000 <= ord(ch) < 0x20000 for ch in text)


@lru_cache(maxsize=None)
def _cjk_path() -> Path | None:
    return next((p for p in _CJK_CANDIDATES if p.exists()), None)


def font_path(text: str, bold: bool) -> str:
    """The font file that can draw ``text`` (a CJK font when it has CJK characters)."""
    if _is_wide(text):
        cjk = _cjk_path()
        if cjk is not None:
            return str(cjk)
    return _latin_path(bold)


@lru_cache(maxsize=None)
def _latin_path(bold: bool) -> str:
    path = _DEJAVU / _LATIN[bold]
    if not path.exists():
        raise FileNotFoundError(f"font {path} missing: install Debian's fonts-dejavu-core")
    return str(path)


@lru_cache(maxsize=256)
def font(path: str, px: int) -> ImageFont.FreeTypeFont:
    """A loaded font at a pixel size."""
    return ImageFont.truetype(path, max(1, px))


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width of one line of text in dp at ``size`` dp; the same at every render scale."""
    if len(text) > CACHED_CHARS:
        return _measure(text, size, bold)
    return _cached_width(text, size, bold)


def _measure(text: str, size: float, bold: bool) -> float:
    face = font(font_path(text, bold), _REFERENCE_PX)
    return face.getlength(single_line(text)) * size / _REFERENCE_PX


_cached_width = lru_cache(maxsize=65536)(_measure)


def wrap(text: str, size: float, bold: bool, width: float, max_lines: int | None) -> list[str]:
    """Greedy word wrap (character wrap for CJK); the last kept line is ellipsised if cut."""
    if len(text) > CACHED_CHARS:
        return list(_wrap_lines(text, size, bold, width, max_lines))
    return list(_wrap(text, size, bold, width, max_lines))


def _wrap_lines(text: str, size: float, bold: bool, width: float, max_lines: int | None) -> tuple[str, ...]:
    lines: list[str] = []
    for paragraph in paragraphs(text):
        limit = None if max_lines is None else max_lines - len(lines) + 1
        lines.extend(_wrap_paragraph(paragraph, size, bold, width, limit))
        if max_lines is not None and len(lines) > max_lines:
            break  # the rest is cut anyway
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = ellipsize(lines[-1] + "…", size, bold, width)
    return tuple(lines or [""])


_wrap = lru_cache(maxsize=16384)(_wrap_lines)


def _wrap_paragraph(text: str, size: float, bold: bool, width: float, limit: int | None = None) -> list[str]:
    """The paragraph's lines; with ``limit``, at most that many (the rest would be cut anyway)."""
    if text_width(text, size, bold) <= width:
        return [text]
    tokens = list(text) if _is_wide(text) else text.split(" ")
    joiner = "" if _is_wide(text) else " "
    lines: list[str] = []
    current = ""
    for token in tokens:
        candidate = f"{current}{joiner}{token}" if current else token
        if current and text_width(candidate, size, bold) > width:
            lines.append(current)
            current = token
            if limit is not None and len(lines) >= limit:
                return [ellipsize(line, size, bold, width) for line in lines]
        else:
            current = candidate
    lines.append(current)
    return [ellipsize(line, size, bold, width) for line in lines]


def ellipsize(text: str, size: float, bold: bool, width: float) -> str:
    """Cut ``text`` with an ellipsis so it fits ``width`` dp: the longest prefix that fits, found by
    bisection (widths grow with the prefix), so a 10,000-character word costs a dozen measurements."""
    if text_width(text, size, bold) <= width:
        return text
    lo, hi = 0, len(text)  # text[:lo] + "…" fits (or lo == 0); text[:hi] + "…" does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if text_width(text[:mid] + "…", size, bold) > width:
            hi = mid
        else:
            lo = mid
    return text[:lo] + "…"
