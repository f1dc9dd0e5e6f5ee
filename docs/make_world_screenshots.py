"""Draw docs/worlds.png: the same screens of two generated worlds, one world per row.

    python docs/make_world_screenshots.py [--seeds 1 2] [--language en] [--out docs/worlds.png]
"""
from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image, ImageDraw

from mobilegym.sim.ui import fonts
from mobilegym.sim.phone import Phone

SCREENS = ("contacts", "messages", "calendar", "weather", "music")  # each app at its home screen
SCALE = 0.3
GAP = 12
LABEL_H = 40


def row(seed: int, language: str) -> list[Image.Image]:
    """Screenshots of every app in SCREENS on world ``seed``."""
    phone = Phone(render_scale=SCALE, language=language)
    shots = []
    for app_id in SCREENS:
        phone.reset_state(seed)
        phone.launch(app_id)
        shots.append(Image.fromarray(phone.screenshot()))
    return shots


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs=2, default=[1, 2])
    parser.add_argument("--language", choices=["en", "zh"], default="en")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("worlds.png"))
    args = parser.parse_args()
    rows = [row(seed, args.language) for seed in args.seeds]
    w, h = rows[0][0].size
    sheet = Image.new("RGB", (len(SCREENS) * (w + GAP) + GAP, len(rows) * (h + LABEL_H + GAP) + GAP), "white")
    draw = ImageDraw.Draw(sheet)
    font = fonts.font(fonts.font_path("world seed", True), 22)
    for r, (seed, shots) in enumerate(zip(args.seeds, rows)):
        top = GAP + r * (h + LABEL_H + GAP)
        draw.text((GAP, top + 6), f"world seed {seed}", fill="black", font=font)
        for c, shot in enumerate(shots):
            sheet.paste(shot, (GAP + c * (w + GAP), top + LABEL_H))
    sheet.save(args.out, optimize=True)
    print(f"saved {args.out} ({sheet.width}x{sheet.height})")


if __name__ == "__main__":
    main()
