"""Setup actions of JSON tasks: ``{"type": name, "parameters": {...}}`` run on a device.

Each type maps to one handler in :data:`SETUP_ACTIONS` (a plain table: a task file can
only name a handler, never reach arbitrary code). Handlers that need a device capability
the device lacks raise a task error naming it. ``push_file`` fetches content inline, from
the task's own folder (``file:`` URLs) or over http(s), caching downloads by the URL's uuid5.
"""
from __future__ import annotations

import base64
import http.client
import os
import posixpath
import random
import time
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mobilegym.device.base import CAP_FILES, CAP_SHELL, CAP_STATE, Device, DeviceError
from mobilegym.judge.errors import TaskError
from mobilegym.sim.app import Prep, SimApp, load_app

DEVICE_ROOTS = ("/sdcard", "/storage/emulated/0", "/data/local/tmp")
URL_SCHEMES = ("http", "https", "file")
MAX_DOWNLOAD_BYTES = 32 * 1024 * 1024
DOWNLOAD_ATTEMPTS = 3
RETRY_DELAY_S = 0.5
DOWNLOAD_TIMEOUT_S = 30.0
CACHE_ENV = "MOBILEGYM_CACHE"


@dataclass
class SetupContext:
    """What a setup handler may use: the device and the folder the task file lives in."""

    device: Device
    task_dir: Path
    seed: str = "0"  # "<task id>|<episode seed>": seeds the random draws of "prepare" actions


Handler = Callable[[SetupContext, dict[str, Any]], None]
SETUP_ACTIONS: dict[str, Handler] = {}


def setup_action(*names: str) -> Callable[[Handler], Handler]:
    """Register a handler under one or more type names."""
    def register(fn: Handler) -> Handler:
        for name in names:
            SETUP_ACTIONS[name] = fn
        return fn
    return register


def require(device: Device, capability: str, user: str) -> None:
    """Raise a task error unless ``device`` advertises ``capability``."""
    if capability not in device.capabilities:
        raise TaskError(f"{user} needs the device capability {capability!r}, which "
                        f"{type(device).__name__} does not have (it has: {', '.join(sorted(device.capabilities))})")


def run_setup(ctx: SetupContext, actions: list[dict[str, Any]], where: str = "config") -> None:
    """Run setup actions in order; any failure but a DeviceError is a task error naming the action."""
    for i, action in enumerate(actions):
        kind = action["type"]
        if kind not in SETUP_ACTIONS:
            raise TaskError(f"{where}[{i}]: unknown setup action {kind!r}; known: {', '.join(sorted(SETUP_ACTIONS))}")
        try:
            SETUP_ACTIONS[kind](SetupContext(ctx.device, ctx.task_dir, f"{ctx.seed}|{where}[{i}]"),
                                action.get("parameters", {}))
        except DeviceError:
            raise
        except TaskError as exc:
            raise TaskError(f"{where}[{i}] ({kind}): {exc}") from exc
        except Exception as exc:  # the device refused the action: the task asked for something wrong
            raise TaskError(f"{where}[{i}] ({kind}): {type(exc).__name__}: {exc}") from exc


# ---------------------------------------------------------------- safety

def check_device_path(path: str) -> str:
    """The normalised device path, or a task error if it leaves the allowed folders."""
    if not path.startswith("/") or "\x00" in path or ".." in path.split("/"):
        raise TaskError(f"device path {path!r} must be absolute without '..'")
    norm = posixpath.normpath(path)
    if not any(norm == root or norm.startswith(root + "/") for root in DEVICE_ROOTS):
        raise TaskError(f"device path {path!r} is outside the allowed folders {', '.join(DEVICE_ROOTS)}")
    return norm


def check_url(url: str) -> urllib.parse.ParseResult:
    """The parsed URL, or a task error for a scheme other than http, https and file."""
    parts = urllib.parse.urlparse(url)
    if parts.scheme not in URL_SCHEMES:
        raise TaskError(f"URL {url!r} has scheme {parts.scheme or '(none)'!r}; allowed: {', '.join(URL_SCHEMES)}")
    if parts.scheme == "file" and parts.netloc not in ("", "localhost"):
        raise TaskError(f"file URL {url!r} must not name a host")
    return parts


def local_file(url: str, task_dir: Path) -> Path:
    """The file a ``file:`` URL names, relative to the task folder; it must stay inside it."""
    raw = urllib.parse.unquote(check_url(url).path)
    root = task_dir.resolve()
    path = (root / raw).resolve()
    if not path.is_relative_to(root):
        raise TaskError(f"{url!r} points outside the task folder {root}")
    return path


# ---------------------------------------------------------------- downloads

def cache_dir() -> Path:
    """Where downloads are cached: $MOBILEGYM_CACHE or ~/.cache/mobilegym, under downloads/."""
    base = os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "mobilegym"
    return Path(base) / "downloads"


class _HttpOnlyRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        if urllib.parse.urlparse(newurl).scheme not in ("http", "https"):
            raise TaskError(f"{req.full_url} redirects to {newurl!r}, which is not http(s)")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


_OPENER = urllib.request.OpenerDirector()
for _handler in (urllib.request.HTTPHandler(), urllib.request.HTTPSHandler(), _HttpOnlyRedirects(),
                 urllib.request.HTTPErrorProcessor(), urllib.request.HTTPDefaultErrorHandler()):
    _OPENER.add_handler(_handler)


def _download_once(url: str, limit: int) -> bytes:
    with _OPENER.open(url, timeout=DOWNLOAD_TIMEOUT_S) as response:
        length = response.headers.get("Content-Length")
        if length is not None and int(length) > limit:
            raise TaskError(f"{url} is {int(length)} bytes, over the {limit}-byte download limit")
        data = response.read(limit + 1)
    if len(data) > limit:
        raise TaskError(f"{url} is over the {limit}-byte download limit")
    return data


def fetch(url: str, task_dir: Path) -> bytes:
    """The bytes a URL names: a file in the task folder, or an http(s) download.

    Downloads are cached under :func:`cache_dir` by ``uuid5(NAMESPACE_URL, url)`` and
    tried :data:`DOWNLOAD_ATTEMPTS` times; anything over :data:`MAX_DOWNLOAD_BYTES` is refused.
    """
    if check_url(url).scheme == "file":
        path = local_file(url, task_dir)
        if not path.is_file():
            raise TaskError(f"{url!r}: no such file {path}")
        if path.stat().st_size > MAX_DOWNLOAD_BYTES:
            raise TaskError(f"{path} is over the {MAX_DOWNLOAD_BYTES}-byte file limit")
        return path.read_bytes()
    cached = cache_dir() / str(uuid.uuid5(uuid.NAMESPACE_URL, url))
    if cached.is_file():
        return cached.read_bytes()
    errors: list[str] = []
    for attempt in range(DOWNLOAD_ATTEMPTS):
        try:
            data = _download_once(url, MAX_DOWNLOAD_BYTES)
            break
        except (OSError, http.client.HTTPException) as exc:  # URLError and HTTPError are OSErrors
            errors.append(f"attempt {attempt + 1}: {exc}")
            if attempt + 1 < DOWNLOAD_ATTEMPTS:
                time.sleep(RETRY_DELAY_S * (attempt + 1))
    else:
        raise TaskError(f"could not download {url}: {'; '.join(errors)}")
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(".part")
    partial.write_bytes(data)
    partial.replace(cached)
    return data


# ---------------------------------------------------------------- handlers

@setup_action("set_state")
def _set_state(ctx: SetupContext, p: dict[str, Any]) -> None:
    """Deep-merge ``patch`` into the world document."""
    require(ctx.device, CAP_STATE, "set_state")
    try:
        ctx.device.set_state(p["patch"])
    except ValueError as exc:
        raise TaskError(f"set_state patch rejected: {exc}") from exc


@setup_action("prepare")
def _prepare(ctx: SetupContext, p: dict[str, Any]) -> None:
    """Make a precondition true in whatever world the phone holds: ``app``'s preparer ``with`` (see
    ``SimApp.preparer``) builds a patch from the current state, seeded by the task and episode."""
    require(ctx.device, CAP_STATE, "prepare")
    app = _app(p["app"])
    if p["with"] not in app.preparers:
        raise TaskError(f"app {app.id!r} has no preparer {p['with']!r}; it has: {', '.join(sorted(app.preparers)) or 'none'}")
    doc = ctx.device.get_state()
    language = doc["os"].get("language", "en")
    patch = app.preparers[p["with"]](Prep(doc, random.Random(ctx.seed), language), **p.get("args", {}))
    try:
        ctx.device.set_state(patch)
    except ValueError as exc:
        raise TaskError(f"prepare {app.id}.{p['with']}: patch rejected: {exc}") from exc


@setup_action("reset_app")
def _reset_app(ctx: SetupContext, p: dict[str, Any]) -> None:
    """Put one app's data back to its defaults.json (state devices) or clear it (``pm clear`` over a shell).

    On a shell-only device ``app`` may also be an Android package name (it contains a dot).
    """
    if CAP_STATE not in ctx.device.capabilities:
        require(ctx.device, CAP_SHELL, "reset_app")
        ctx.device.shell(f"pm clear {p['app'] if '.' in p['app'] else _app(p['app']).package}")
        return
    defaults = _app(p["app"]).defaults()
    ctx.device.set_state({"apps": {p["app"]: None}})  # two steps: a merge patch cannot drop keys
    ctx.device.set_state({"apps": {p["app"]: defaults}})


def _app(app_id: str) -> SimApp:
    try:
        return load_app(app_id)
    except ValueError as exc:
        raise TaskError(str(exc)) from None


@setup_action("open_app")
def _open_app(ctx: SetupContext, p: dict[str, Any]) -> None:
    """Launch an app by id or display name."""
    ctx.device.open_app(p["app"])


@setup_action("go_home")
def _go_home(ctx: SetupContext, p: dict[str, Any]) -> None:
    """Press the home key."""
    ctx.device.key("home")


@setup_action("advance_time", "sleep")
def _advance_time(ctx: SetupContext, p: dict[str, Any]) -> None:
    """Let the phone's clock run ``seconds``."""
    ctx.device.wait(float(p["seconds"]))


@setup_action("push_file")
def _push_file(ctx: SetupContext, p: dict[str, Any]) -> None:
    """Write ``content`` (text), ``content_base64`` or the bytes at ``url`` to a device path."""
    require(ctx.device, CAP_FILES, "push_file")
    path = check_device_path(p["path"])
    if "content" in p:
        data = p["content"].encode("utf-8")
    elif "content_base64" in p:
        data = base64.b64decode(p["content_base64"], validate=True)
    else:
        data = fetch(p["url"], ctx.task_dir)
    ctx.device.push(path, data)


@setup_action("execute")
def _execute(ctx: SetupContext, p: dict[str, Any]) -> None:
    """Run a device shell command (the simulated phone supports a documented subset)."""
    require(ctx.device, CAP_SHELL, "execute")
    ctx.device.shell(p["command"])


@setup_action("launch")
def _launch(ctx: SetupContext, p: dict[str, Any]) -> None:
    """Open an app straight at a screen: a route such as ``/alarm/edit?id=a1`` on the simulated
    phone, an activity or a URI on a real one (devices that offer ``launch(app, route)``)."""
    launch = getattr(ctx.device, "launch", None)
    if launch is None:
        raise TaskError(f"launch needs a device that can open a screen directly; {type(ctx.device).__name__} cannot")
    launch(p["app"], p["route"])
