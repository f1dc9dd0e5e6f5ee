"""Settings in a generated world: the phone's switches and levels, its saved Wi-Fi networks and paired
Bluetooth devices, and the About page (a real phone model, the owner's device name, Android version,
storage). Imported by the app's __init__ before the screens; it never imports them."""
from __future__ import annotations

import datetime as dt
import random
import string
from typing import Any

from mobilegym.sim.worldgen.draws import indices
from mobilegym.sim.worldgen.pools import read_pool

PACKAGE = __package__
FONT_SIZES = ("small", "default", "large", "largest")
FONT_WEIGHTS = (2, 10, 4, 1)
ANDROID_RELEASES = {12: dt.date(2021, 10, 4), 13: dt.date(2022, 8, 15), 14: dt.date(2023, 10, 4),
                    15: dt.date(2024, 10, 15), 16: dt.date(2025, 6, 10)}
BUILD_PREFIX = {12: "SQ3A", 13: "TQ3A", 14: "UQ1A", 15: "AP4A", 16: "BP2A"}


def _fill(rng: random.Random, template: str, owner: Any) -> str:
    """A network or device name from a template: owner names, digits ({dd}) and hex digits ({hex4}, {HEX4})."""
    text = template.replace("{family}", owner.family).replace("{given}", owner.given).replace("{name}", owner.name)
    for width in range(6, 0, -1):
        # every placeholder's characters are drawn, present or not: the stream (and so the world) stays as it was
        for placeholder, alphabet in (("{" + "d" * width + "}", string.digits), ("{hex%d}" % width, "0123456789abcdef"),
                                      ("{HEX%d}" % width, "0123456789ABCDEF")):
            drawn = indices(rng, len(alphabet), width)
            if placeholder in text:
                text = text.replace(placeholder, "".join([alphabet[i] for i in drawn]))
    return text


def _distinct(rng: random.Random, templates: list[str], count: int, owner: Any, taken: list[str]) -> list[str]:
    names: list[str] = []
    for template in rng.sample(templates, len(templates)):
        if len(names) == count:
            break
        name = _fill(rng, template, owner)
        if name not in names and name not in taken:
            names.append(name)
    return names


def _about(rng: random.Random, pool: dict[str, Any], world: Any) -> dict[str, Any]:
    phone = rng.choice(pool["models"])
    versions = [v for v in range(phone["android"][0], phone["android"][1] + 1)
                if ANDROID_RELEASES[v] + dt.timedelta(days=60) <= world.today] or [phone["android"][0]]
    version = rng.choice(versions[-2:])
    built = max(ANDROID_RELEASES[version], world.today - dt.timedelta(days=rng.randint(20, 240)))
    total = rng.choice(phone["storage"])
    used = round(total * rng.uniform(0.12, 0.93), 1)
    serial = "".join(rng.choice(string.ascii_uppercase + string.digits) for _ in range(rng.choice((10, 11, 12))))
    template = rng.choice(pool["device_names"])
    return {
        "device_name": _fill(rng, template.replace("{brand}", phone["brand"]), world.owner),
        "model": phone["model"],
        "android_version": str(version),
        "build_number": f"{BUILD_PREFIX[version]}.{built:%y%m%d}.{rng.randint(1, 30):03d}",
        "serial_number": serial,
        "storage_total_gb": total,
        "storage_used_gb": used,
    }


def generate(world: Any) -> dict[str, Any]:
    """The Settings app's state in ``world``."""
    rng = world.rng("settings")
    pool = read_pool(PACKAGE, "pools", world.language)
    home = _fill(rng, rng.choice(pool["home_networks"]), world.owner)
    saved = [home] + _distinct(rng, pool["networks"], rng.randint(0, 5), world.owner, [home])
    rng.shuffle(saved)
    airplane = rng.random() < 0.08
    wifi = rng.random() < (0.4 if airplane else 0.85)
    connected = home if rng.random() < 0.7 else rng.choice(saved)
    devices = [dict(d) for d in rng.sample(pool["devices"], rng.randint(0, 5))]  # the state owns its copies
    return {
        "wifi": wifi,
        "wifi_network": connected,
        "saved_networks": saved,
        "airplane_mode": airplane,
        "bluetooth": rng.random() < (0.2 if airplane else 0.55) and bool(devices or rng.random() < 0.3),
        "paired_devices": devices,
        "dark_mode": rng.random() < 0.4,
        "brightness": rng.randint(12, 100),
        "adaptive_brightness": rng.random() < 0.65,
        "font_size": rng.choices(FONT_SIZES, FONT_WEIGHTS)[0],
        "do_not_disturb": rng.random() < 0.2,
        "time_24h": True,  # the status bar and the apps' lists show 24-hour times
        "flashlight": False,  # the torch is off when the episode starts
        "about": _about(world.rng("settings|about"), pool, world),
    }
