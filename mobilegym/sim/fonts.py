"""Font lookup and resolution-independent text measurement (in dp)."""
from __future__ import annotations

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


@lru_cache(maxsize=65536)
def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width of one line of text in dp at ``size`` dp; the same at every render scale."""
    face = font(font_path(text, bold), _REFERENCE_PX)
    return face.getlength(text) * size / _REFERENCE_PX


def wrap(text: str, size: float, bold: bool, width: float, max_lines: int | None) -> list[str]:
    """Greedy word wrap (character wrap for CJK); the last kept line is ellipsised if cut."""
    return list(_wrap(text, size, bold, width, max_lines))


@lru_cache(maxsize=65536)
def _wrap(text: str, size: float, bold: bool, width: float, max_lines: int | None) -> tuple[str, ...]:
    lines: list[str] = []
    for paragraph in text.split("\n"):
        lines.extend(_wrap_paragraph(paragraph, size, bold, width))
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = ellipsize(lines[-1] + "…", size, bold, width)
    return tuple(lines or [""])


def _wrap_paragraph(text: str, size: float, bold: bool, width: float) -> list[str]:
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
        else:
            current = candidate
    lines.append(current)
    return [ellipsize(line, size, bold, width) for line in lines]


def ellipsize(text: str, size: float, bold: bool, width: float) -> str:
    """Cut ``text`` with an ellipsis so it fits ``width`` dp."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text + "…"
