"""What the model sees and how its coordinates come back: resizing, PNG data URLs, frames, set-of-mark.

A screenshot (``HxWx3`` uint8, possibly smaller than the device when ``render_scale < 1``) is
resized as the model family expects (:class:`ResizePolicy`) and sent as a PNG data URL. A
:class:`Frame` maps the coordinates the model answers in (pixels of the image it saw, relative
0-1000, or relative 0-1) back to device pixels; with set-of-mark it also holds the numbered boxes
drawn on the clickable nodes, so ``mark=N`` resolves to that node's centre.
"""
from __future__ import annotations

import base64
import io
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from mobilegym.screen_text import parse_nodes
from .errors import ParseError

# coordinate convention -> the extent of its axes (None: pixels, of the image sent or of the device)
CONVENTIONS: dict[str, float | None] = {"image": None, "device": None, "relative_1000": 1000.0, "relative_999": 999.0,
                                        "relative_1": 1.0}
RESIZE_MODES = ("smart", "max_side", "none")
MAX_ASPECT = 200
_MARK_COLOURS = ((230, 25, 75), (0, 130, 200), (60, 160, 60), (145, 30, 180), (245, 130, 48), (0, 128, 128))


def smart_resize(width: int, height: int, factor: int, min_pixels: int, max_pixels: int) -> tuple[int, int]:
    """The size Qwen-VL style processors feed the model: both sides multiples of ``factor``, the
    area within ``[min_pixels, max_pixels]``, the aspect ratio kept as closely as possible."""
    if min(width, height) < 1:
        raise ValueError(f"image size must be positive, got {width}x{height}")
    if max(width, height) / min(width, height) > MAX_ASPECT:
        raise ValueError(f"aspect ratio of {width}x{height} exceeds {MAX_ASPECT}")
    w = max(factor, round(width / factor) * factor)
    h = max(factor, round(height / factor) * factor)
    if w * h > max_pixels:
        shrink = math.sqrt(width * height / max_pixels)
        w = max(factor, math.floor(width / shrink / factor) * factor)
        h = max(factor, math.floor(height / shrink / factor) * factor)
    elif w * h < min_pixels:
        grow = math.sqrt(min_pixels / (width * height))
        w = math.ceil(width * grow / factor) * factor
        h = math.ceil(height * grow / factor) * factor
    return w, h


@dataclass(frozen=True)
class ResizePolicy:
    """How a family wants its screenshot: ``smart`` (Qwen-VL rounding), ``max_side`` (shrink so the
    longer side fits, aspect kept) or ``none`` (as captured)."""

    mode: str
    factor: int = 28
    min_pixels: int = 4 * 28 * 28
    max_pixels: int = 16384 * 28 * 28
    max_side: int | None = None

    def __post_init__(self) -> None:
        if self.mode not in RESIZE_MODES:
            raise ValueError(f"resize mode must be one of {', '.join(RESIZE_MODES)}, got {self.mode!r}")
        if self.mode == "smart" and not (self.factor >= 1 and 1 <= self.min_pixels <= self.max_pixels):
            raise ValueError(f"smart resize needs factor >= 1 and 1 <= min_pixels <= max_pixels, got {self}")
        if self.mode == "max_side" and (self.max_side is None or self.max_side < 1):
            raise ValueError(f"max_side resize needs a positive max_side, got {self.max_side!r}")

    def size(self, width: int, height: int) -> tuple[int, int]:
        """The (width, height) to send for a screenshot of this size."""
        if self.mode == "smart":
            return smart_resize(width, height, self.factor, self.min_pixels, self.max_pixels)
        if self.mode == "max_side" and max(width, height) > self.max_side:  # type: ignore[operator]
            scale = self.max_side / max(width, height)  # type: ignore[operator]
            return max(1, round(width * scale)), max(1, round(height * scale))
        return width, height

    def to_dict(self) -> dict[str, Any]:
        """The policy for the results' meta."""
        if self.mode == "smart":
            return {"mode": "smart", "factor": self.factor, "min_pixels": self.min_pixels,
                    "max_pixels": self.max_pixels}
        if self.mode == "max_side":
            return {"mode": "max_side", "max_side": self.max_side}
        return {"mode": "none"}


def check_screenshot(image: Any) -> np.ndarray:
    """The screenshot as an ``HxWx3`` uint8 array; ValueError naming what is wrong otherwise."""
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        got = f"{image.dtype} array of shape {image.shape}" if isinstance(image, np.ndarray) else type(image).__name__
        raise ValueError(f"the screenshot must be an HxWx3 uint8 array, got {got}")
    return image


def resize(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The image at (width, height), bicubic; the same array when it already has that size."""
    from PIL import Image

    if (image.shape[1], image.shape[0]) == tuple(size):
        return image
    return np.asarray(Image.fromarray(image).resize(size, Image.BICUBIC))


def png_data_url(image: np.ndarray) -> str:
    """A ``data:image/png;base64,...`` URL of the image."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(image).save(buffer, format="PNG", compress_level=3)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


@dataclass(frozen=True)
class Mark:
    """A numbered box of set-of-mark: a clickable node's bounds (device pixels) and its description."""

    number: int
    bounds: tuple[int, int, int, int]
    label: str

    @property
    def center(self) -> tuple[int, int]:
        x1, y1, x2, y2 = self.bounds
        return (x1 + x2) // 2, (y1 + y2) // 2


def find_marks(xml: str, device_size: tuple[int, int]) -> tuple[Mark, ...]:
    """The clickable nodes of a screen with some area on it, numbered from 1 in document order."""
    width, height = device_size
    marks: list[Mark] = []
    for node in parse_nodes(xml):
        x1, y1 = max(0, node.bounds[0]), max(0, node.bounds[1])
        x2, y2 = min(width, node.bounds[2]), min(height, node.bounds[3])
        if not node.clickable or x2 <= x1 or y2 <= y1:
            continue
        kind = node.cls.rsplit(".", 1)[-1]
        rid = f"#{node.short_id}" if node.short_id else ""
        text = node.text or node.desc
        marks.append(Mark(len(marks) + 1, (x1, y1, x2, y2), f"{kind}{rid} {text!r}" if text else f"{kind}{rid}"))
    return tuple(marks)


def describe_marks(marks: tuple[Mark, ...]) -> str:
    """One line per mark, ``[N] Class#id 'text'``, for the prompt."""
    return "\n".join(f"[{mark.number}] {mark.label}" for mark in marks)


def draw_marks(image: np.ndarray, marks: tuple[Mark, ...], device_size: tuple[int, int]) -> np.ndarray:
    """A copy of the image with each mark's box outlined and its number on a filled tag."""
    from PIL import Image, ImageDraw

    from mobilegym.sim.ui import fonts

    canvas = Image.fromarray(image).copy()
    draw = ImageDraw.Draw(canvas)
    sx, sy = image.shape[1] / device_size[0], image.shape[0] / device_size[1]
    px = max(12, round(image.shape[1] / 36))
    face = fonts.font(fonts.font_path("0", True), px)
    line = max(1, round(px / 8))
    for mark in marks:
        colour = _MARK_COLOURS[(mark.number - 1) % len(_MARK_COLOURS)]
        x1, y1, x2, y2 = (round(mark.bounds[0] * sx), round(mark.bounds[1] * sy),
                          max(round(mark.bounds[2] * sx) - 1, 0), max(round(mark.bounds[3] * sy) - 1, 0))
        draw.rectangle((x1, y1, x2, y2), outline=colour, width=line)
        tag = str(mark.number)
        left, top, right, bottom = draw.textbbox((0, 0), tag, font=face)
        pad = max(1, px // 6)
        draw.rectangle((x1, y1, x1 + right - left + 2 * pad, y1 + bottom - top + 2 * pad), fill=colour)
        draw.text((x1 + pad - left, y1 + pad - top), tag, fill=(255, 255, 255), font=face)
    return np.asarray(canvas)


def _coordinate(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ParseError(f"coordinate {name} must be a number, got {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ParseError(f"coordinate {name} must be finite, got {value!r}")
    return number


@dataclass(frozen=True)
class Frame:
    """The coordinate frame of one step: the device, the image the model saw, and the model's convention.

    ``convention`` is ``image`` (pixels of the image sent, ``image_size``), ``device`` (device pixels,
    whatever the image's size), ``relative_1000``, ``relative_999`` (MAI-UI, UI-Venus) or ``relative_1``.
    The model's coordinates must lie within its extent (edges included);
    anything else is a :class:`ParseError`, never silently clamped.
    """

    device_size: tuple[int, int]
    image_size: tuple[int, int]
    convention: str
    marks: tuple[Mark, ...] = ()

    def __post_init__(self) -> None:
        if self.convention not in CONVENTIONS:
            raise ValueError(f"coordinate convention must be one of {', '.join(CONVENTIONS)}, got {self.convention!r}")
        if min(*self.device_size, *self.image_size) < 1:
            raise ValueError(f"frame sizes must be positive, got device {self.device_size}, image {self.image_size}")

    @property
    def extent(self) -> tuple[float, float]:
        """The upper bound of x and y in the model's convention."""
        span = CONVENTIONS[self.convention]
        if span is not None:
            return span, span
        width, height = self.device_size if self.convention == "device" else self.image_size
        return float(width), float(height)

    def describe(self) -> str:
        """The convention in words, for prompts and error messages."""
        ex, ey = self.extent
        if self.convention == "image":
            return f"pixels of the {ex:g}x{ey:g} screenshot"
        if self.convention == "device":
            return f"pixels of the {ex:g}x{ey:g} screen"
        return f"relative, 0 to {ex:g} on each axis"

    def to_device(self, x: Any, y: Any) -> tuple[int, int]:
        """A point the model gave -> device pixels (rounded, kept on the screen)."""
        out = []
        for name, value, extent, size in (("x", x, self.extent[0], self.device_size[0]),
                                          ("y", y, self.extent[1], self.device_size[1])):
            number = _coordinate(name, value)
            if not 0 <= number <= extent:
                raise ParseError(f"{name}={value!r} is outside 0..{extent:g} ({self.describe()})")
            out.append(min(size - 1, round(number / extent * size)))
        return out[0], out[1]

    def from_device(self, x: float, y: float) -> tuple[float, float]:
        """Device pixels -> the model's convention (for prompts and tests)."""
        return (x / self.device_size[0] * self.extent[0], y / self.device_size[1] * self.extent[1])

    def mark(self, number: Any) -> tuple[int, int]:
        """The device-pixel centre of mark ``number``."""
        if isinstance(number, str) and number.strip().isdigit():
            number = int(number)
        if isinstance(number, bool) or not isinstance(number, int):
            raise ParseError(f"mark must be a mark number, got {number!r}")
        if not self.marks:
            raise ParseError(f"mark={number} given, but no marks are drawn on this screen")
        if not 1 <= number <= len(self.marks):
            raise ParseError(f"mark={number} does not exist; the marks are 1..{len(self.marks)}")
        return self.marks[number - 1].center
