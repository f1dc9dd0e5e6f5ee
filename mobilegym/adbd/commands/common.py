"""Helpers several command modules share: the simulated clock (parse a `date` argument, move the clock forward),
package names and uids, and the log buffer."""
from __future__ import annotations

import datetime as dt
import math
import re
import zlib
from typing import Any

from .registry import CommandError, Invocation
from ...sim.clock import MAX_MS, from_ms, to_ms
from ...sim.nav import LAUNCHER as LAUNCHER_ID
from ...sim.nav import LAUNCHER_PACKAGE


DATE_FORMATS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y%m%d.%H%M%S",
                "%Y-%m-%d")


def parse_date(text: str, now_ms: int) -> int:
    """Epoch ms of a `date` argument: ``MMDDhhmm[[CC]YY][.ss]``, ``-s`` text (``YYYY-MM-DD hh:mm[:ss]``) or
    ``@SECONDS``; the phone's clock is in UTC."""
    if text.startswith("@"):
        try:
            return round(float(text[1:]) * 1000)
        except ValueError:
            raise CommandError(f"date: invalid date '{text}'") from None
    match = re.fullmatch(r"(\d{2})(\d{2})(\d{2})(\d{2})(\d{2}|\d{4})?(?:\.(\d{2}))?", text)
    if match is not None:
        month, day, hour, minute, year, second = match.groups()
        now = from_ms(now_ms)
        full_year = now.year if year is None else int(year) if len(year) == 4 else 2000 + int(year)
        try:
            moment = dt.datetime(full_year, int(month), int(day), int(hour), int(minute), int(second or 0))
        except ValueError:
            raise CommandError(f"date: invalid date '{text}'") from None
        return to_ms(moment)
    for fmt in DATE_FORMATS:
        try:
            return to_ms(dt.datetime.strptime(text, fmt))
        except ValueError:
            continue
    raise CommandError(f"date: invalid date '{text}' (MMDDhhmm[[CC]YY][.ss], -s 'YYYY-MM-DD hh:mm:ss' or @SECONDS)")


def set_clock(inv: Invocation, target_ms: int, what: str) -> None:
    """Move the simulated clock to ``target_ms``: forward only (apps keep their past as it happened)."""
    with inv.shell.lock:
        now = inv.shell.phone.time_ms()
        if target_ms < now:
            raise CommandError(f"{what}: the simulated clock only moves forward: it is {from_ms(now):%Y-%m-%d %H:%M:%S}"
                               f" and {from_ms(target_ms):%Y-%m-%d %H:%M:%S} is earlier")
        if target_ms > MAX_MS:
            raise CommandError(f"{what}: the simulated clock cannot go past {from_ms(MAX_MS):%Y-%m-%d}")
        advance_clock(inv, (target_ms - now) / 1000, what)


def advance_clock(inv: Invocation, seconds: float, what: str) -> None:
    """phone.wait(seconds), refused if the clock would leave its range (a broken clock would
    break every screen until a state reset)."""
    if not math.isfinite(seconds) or seconds < 0:
        raise CommandError(f"{what}: invalid number '{seconds:g}'")
    with inv.shell.lock:
        now = inv.shell.phone.time_ms()
        if now + seconds * 1000 > MAX_MS:
            raise CommandError(f"{what}: the simulated clock cannot go past {from_ms(MAX_MS):%Y-%m-%d}")
        inv.shell.call(inv.shell.phone.wait, seconds)


def package_of(phone: Any, app_id: str) -> str:
    if app_id == LAUNCHER_ID:
        return LAUNCHER_PACKAGE
    app = getattr(phone, "apps", {}).get(app_id)
    return app.package if app is not None else f"com.mobilegym.{app_id}"


def uid_of(package: str) -> int:
    return 10000 + zlib.crc32(package.encode()) % 200


def log_event(shell: Any, tag: str, message: str, priority: str = "I", pid: int = 612) -> None:
    """Append a line to the shell's log buffer (shared by every shell of a server)."""
    logs = shell.logs
    with shell.lock:
        ms = shell.phone.time_ms()
    logs.append((ms, pid, pid + 17, priority, tag, message))
