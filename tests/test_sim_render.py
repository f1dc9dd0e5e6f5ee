"""The canvas: fast paths draw exactly the pixels of the general ones."""
from __future__ import annotations

import numpy as np
import pytest

from mobilegym.sim.phone import Phone
from mobilegym.sim.ui.render import Canvas

from .uitools import CORE_APPS

WHITE, BLUE = (255, 255, 255), (30, 90, 200)


@pytest.mark.parametrize("w, h, radius", [(40, 20, 6), (7, 30, 12), (100, 100, 50), (5, 5, 1.5), (61, 17, 8.5)])
def test_direct_rounded_rect_equals_the_masked_clipped_one(w: int, h: int, radius: float) -> None:
    rect = ("rect", 10, 10, w, h, BLUE, radius)
    direct = Canvas(200, 200, 1.0, WHITE).draw([rect])
    # a clip that cuts off the rect's last row forces the mask path
    clipped = Canvas(200, 200, 1.0, WHITE).draw([("clip", 0, 0, 200, 10 + h - 1), rect, ("unclip",)])
    a, b = np.asarray(direct), np.asarray(clipped)
    assert (a != 255).any()  # the rect was drawn
    assert np.array_equal(a[:10 + h - 1], b[:10 + h - 1])
    assert (b[10 + h - 1:] == 255).all()  # nothing outside the clip


@pytest.mark.parametrize("scale", [1.0, 0.37, 0.1])
def test_pixels_is_the_image_as_a_read_only_array(scale: float) -> None:
    phone = Phone(render_scale=scale, apps=CORE_APPS)
    phone.open_app("settings")
    frame = phone.frame()
    canvas = Canvas(*phone.render_size, phone.density * scale, frame.env.theme.background)
    image = canvas.draw(frame.items())
    pixels = canvas.pixels()
    assert pixels.shape == (image.height, image.width, 3) and pixels.dtype == np.uint8
    assert np.array_equal(pixels, np.asarray(image))
    assert not pixels.flags.writeable
    assert np.array_equal(phone.screenshot(), pixels)


def test_background_rects_at_the_start_are_skipped_without_changing_pixels() -> None:
    items = [("rect", 0, 0, 200, 200, WHITE, 0), ("rect", 5, 5, 20, 20, BLUE, 4), ("rect", 0, 0, 50, 50, WHITE, 0)]
    full = Canvas(200, 200, 1.0, WHITE).draw(items)
    assert np.asarray(full)[10, 10].tolist() == list(WHITE)  # the later white rect still paints over blue
    assert np.array_equal(np.asarray(full), np.asarray(Canvas(200, 200, 1.0, (0, 0, 0)).draw(items)))
