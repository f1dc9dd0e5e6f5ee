"""Colours and type scale for light and dark mode."""
from __future__ import annotations

from dataclasses import dataclass

Color = tuple[int, int, int]


def hex_color(value: str) -> Color:
    """'#RRGGBB' -> (r, g, b)."""
    value = value.lstrip("#")
    if len(value) != 6:
        raise ValueError(f"colour must be #RRGGBB, got {value!r}")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


@dataclass(frozen=True)
class Theme:
    """The palette every view draws with; ``text_scale`` follows the font-size setting."""

    background: Color
    surface: Color
    on_surface: Color
    muted: Color
    divider: Color
    primary: Color
    on_primary: Color
    status_bar: Color
    nav_bar: Color
    scrim: Color
    text_scale: float = 1.0


LIGHT = Theme(
    background=(250, 250, 252), surface=(255, 255, 255), on_surface=(28, 28, 32),
    muted=(110, 110, 120), divider=(225, 225, 230), primary=(21, 101, 192),
    on_primary=(255, 255, 255), status_bar=(240, 240, 244), nav_bar=(240, 240, 244),
    scrim=(120, 120, 130),
)
DARK = Theme(
    background=(18, 18, 20), surface=(32, 32, 36), on_surface=(235, 235, 240),
    muted=(160, 160, 170), divider=(60, 60, 66), primary=(100, 170, 255),
    on_primary=(10, 10, 20), status_bar=(12, 12, 14), nav_bar=(12, 12, 14),
    scrim=(5, 5, 8),
)
FONT_SCALES = {"small": 0.9, "default": 1.0, "large": 1.15, "largest": 1.3}
