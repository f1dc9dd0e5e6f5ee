"""Setup actions of JSON tasks: ``{"type": name, "parameters": {...}}`` run on a device.

Each type maps to one handler in :data:`SETUP_ACTIONS` (a plain table: a task file can
only name a handler, never reach arbitrary code). Handlers that need a device capability
the device lacks raise a task error naming it. ``push_file`` fetches content inline, from
the task's own folder (``file:`` URLs) or over http(s), caching downloads by the URL's uuid5.
Downloads are off unless the user allows the host (``$MOBILEGYM_ALLOW_HOSTS``, or the environment's
``allow_hosts``); loopback, private and link-local addresses need the host listed by name, and one
deadline bounds the whole download.
"""
from __future__ import annotations

import base64
import contextvars
import http.client
import ipaddress
import math
import os
import posixpath
import random
import socket
import threading
import time
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from mobilegym.device.apps import app_defaults, app_package
from mobilegym.device.base import CAP_FILES, CAP_LAUNCH, CAP_PREPARE, CAP_SHELL, CAP_STATE, Device, DeviceError
from mobilegym.judge.episode import copy_state, read_state
from mobilegym.judge.errors import TaskError
from mobilegym.judge.spread import Spread
from mobilegym.judge.state.patch_types import json_type, patch_type_problems

T = TypeVar("T")

DEVICE_ROOTS = ("/sdcard", "/storage/emulated/0", "/data/local/tmp")
URL_SCHEMES = ("http", "https", "file")
MAX_DOWNLOAD_BYTES = 32 * 1024 * 1024
DOWNLOAD_ATTEMPTS = 3
RETRY_DELAY_S = 0.5
DOWNLOAD_TIMEOUT_S = 30.0  # one stalled connect or read
DOWNLOAD_DEADLINE_S = 60.0  # the whole download of one URL, every attempt included
CACHE_ENV = "MOBILEGYM_CACHE"
ALLOW_HOSTS_ENV = "MOBILEGYM_ALLOW_HOSTS"  # hosts push_file may download from; none by default
DEADLINE_ENV = "MOBILEGYM_DOWNLOAD_DEADLINE"
ALLOWED_HOSTS: list[str] = []  # more hosts, added in code with allow_download_hosts()
# hosts allowed only within a block (download_hosts): an environment's allow_hosts, during its setup and judging
_SCOPED_HOSTS: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar("mobilegym_allow_hosts", default=())
MAX_ADVANCE_S = 86_400.0  # advance_time: at most a day of simulated time (the schema says the same)
MAX_SLEEP_S = 10.0  # sleep: a pause of a few seconds (real time on a real phone)
MAX_REAL_WAIT_S = 300.0  # advance_time on a phone whose clock cannot be moved waits for real: at most 5 min


@dataclass
class SetupContext:
    """What a setup handler may use: the device, the folder the task file lives in, and what spreads the task's
    answer over the worlds (the task id and the caller's reset seed; ``spreads`` False on the canonical phone)."""

    device: Device
    task_dir: Path
    seed: str = "0"  # "<task id>|<episode seed>": seeds the random draws of "prepare" actions
    task_id: str = ""
    spread_seed: int | None = None
    spreads: bool = False


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
            SETUP_ACTIONS[kind](replace(ctx, seed=f"{ctx.seed}|{where}[{i}]"), action.get("parameters", {}))
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


def allow_download_hosts(*hosts: str) -> None:
    """Allow ``push_file`` to download from these hosts (as ``MOBILEGYM_ALLOW_HOSTS`` does): a host
    name or IP address (loopback and private addresses too), ``*.example.org`` (that domain and its
    subdomains, public addresses only) or ``*`` (any host with a public address)."""
    ALLOWED_HOSTS.extend(h.strip() for h in hosts if h.strip())


def check_allow_hosts(hosts: Iterable[str]) -> tuple[str, ...]:
    """``hosts`` as a tuple of entries like those of ``$MOBILEGYM_ALLOW_HOSTS`` (a host name or address,
    ``*.domain`` or ``*``), or a ValueError naming ``allow_hosts``; a lone string is refused rather than
    read letter by letter."""
    if isinstance(hosts, (str, bytes)) or not isinstance(hosts, Iterable):
        raise ValueError(f"allow_hosts must be a list of host names such as ['example.org', '*.cdn.net'], "
                         f"got {hosts!r}")
    entries = tuple(hosts)
    bad = [h for h in entries
           if not isinstance(h, str) or not h.strip() or "," in h or any(c.isspace() for c in h.strip())]
    if bad:
        raise ValueError(f"allow_hosts entries must be host names, addresses, '*.domain' or '*', got {bad[0]!r}")
    return tuple(h.strip() for h in entries)


@contextmanager
def download_hosts(hosts: Iterable[str]) -> Iterator[None]:
    """Allow downloads from ``hosts`` (see :func:`check_allow_hosts`) within this block only, in this
    thread or task: what ``MobileGymEnv(allow_hosts=...)`` wraps around task setup and judging."""
    token = _SCOPED_HOSTS.set(_SCOPED_HOSTS.get() + check_allow_hosts(hosts))
    try:
        yield
    finally:
        _SCOPED_HOSTS.reset(token)


def _host_key(host: str) -> str | ipaddress.IPv4Address | ipaddress.IPv6Address:
    host = host.strip().strip("[]").lower().rstrip(".")
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return host


def host_permission(host: str, extra: Iterable[str] = ()) -> str | None:
    """"explicit" when ``host`` is listed by name or address (private addresses allowed), "wildcard"
    when only ``*`` or ``*.domain`` covers it (public addresses only), None when downloads from it are off."""
    entries = [e for e in os.environ.get(ALLOW_HOSTS_ENV, "").split(",") if e.strip()]
    entries += [*ALLOWED_HOSTS, *_SCOPED_HOSTS.get(), *extra]
    key = _host_key(host)
    found = None
    for entry in entries:
        entry = entry.strip().lower()
        if entry == "*":
            found = found or "wildcard"
        elif entry.startswith("*."):
            domain = entry[2:].rstrip(".")
            if isinstance(key, str) and (key == domain or key.endswith("." + domain)):
                found = found or "wildcard"
        elif _host_key(entry) == key:
            return "explicit"
    return found


def _public(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """A globally routable unicast address (not loopback, private, link-local, shared, reserved, multicast)."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def _resolve(host: str, port: int, timeout: float) -> list[tuple]:
    """getaddrinfo within ``timeout`` seconds (in a daemon thread: a hung resolver cannot hold setup)."""
    result: list[Any] = []

    def work() -> None:
        try:
            result.append(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except OSError as exc:
            result.append(exc)

    thread = threading.Thread(target=work, name="mobilegym-resolve", daemon=True)
    thread.start()
    thread.join(max(timeout, 0.0))
    if not result:
        raise TimeoutError(f"resolving {host} took longer than {timeout:.1f} s")
    if isinstance(result[0], OSError):
        raise result[0]
    return result[0]


class DownloadDeadline(TaskError):
    """The whole download (every attempt) took longer than its deadline."""


class _Guard:
    """One download's rules: allowed hosts, checked addresses, and a total deadline enforced by
    shutting down its sockets when the time is up (a server trickling bytes cannot hold setup)."""

    def __init__(self, extra_hosts: Iterable[str], deadline_s: float) -> None:
        self.extra_hosts = list(extra_hosts)
        self.deadline_s = deadline_s
        self.deadline = time.monotonic() + deadline_s
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(deadline_s, self.expire)
        self._timer.daemon = True

    def __enter__(self) -> _Guard:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def check_time(self, url: str) -> None:
        if self.expired or self.remaining() <= 0:
            self.expired = True
            raise DownloadDeadline(f"downloading {url} took longer than the {self.deadline_s:g} s deadline "
                                   f"(${DEADLINE_ENV})")

    def track(self, sock: socket.socket) -> None:
        with self._lock:
            if self.expired:
                sock.close()
                raise TimeoutError("the download deadline has passed")
            self._sockets.append(sock)

    def expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def connect(self, address: tuple[str, int], timeout: Any = None, source_address: Any = None,
                *args: Any, **kwargs: Any) -> socket.socket:
        """socket.create_connection for one allowed host, to checked addresses only."""
        host, port = address
        permission = host_permission(host, self.extra_hosts)
        if permission is None:
            raise TaskError(_not_allowed(host))
        refused: list[str] = []
        error: OSError | None = None
        for family, kind, proto, _, sockaddr in _resolve(host, port, min(DOWNLOAD_TIMEOUT_S, self.remaining())):
            ip = ipaddress.ip_address(str(sockaddr[0]).split("%")[0])
            if permission != "explicit" and not _public(ip):
                if str(ip) not in refused:
                    refused.append(str(ip))
                continue
            sock = socket.socket(family, kind, proto)
            self.track(sock)
            sock.settimeout(max(min(DOWNLOAD_TIMEOUT_S, self.remaining()), 0.001))
            try:
                sock.connect(sockaddr)
                return sock
            except OSError as exc:
                error = exc
                sock.close()
        if error is None and refused:
            raise TaskError(f"{host} resolves to {', '.join(refused)}: loopback, private and link-local addresses "
                            f"are refused unless the host is listed by name in ${ALLOW_HOSTS_ENV}")
        raise error or OSError(f"{host} has no address")


def _not_allowed(host: str) -> str:
    return (f"downloads from {host!r} are off: allow the host with ${ALLOW_HOSTS_ENV}={host} (a comma-separated "
            f"list of host names, *.domain or *), gym.make(..., allow_hosts=[{host!r}]) or "
            "mobilegym.judge.json.setup_actions.allow_download_hosts()")


def _opener(guard: _Guard) -> urllib.request.OpenerDirector:
    """urllib without proxies or other schemes, whose connections go through ``guard``."""

    class Http(http.client.HTTPConnection):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._create_connection = guard.connect  # http.client's own hook for making the socket

    class Https(http.client.HTTPSConnection):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._create_connection = guard.connect

        def connect(self) -> None:
            super().connect()
            guard.track(self.sock)  # the TLS socket that replaced the tracked plain one

    class HttpHandler(urllib.request.HTTPHandler):
        def http_open(self, req):  # type: ignore[no-untyped-def]
            return self.do_open(Http, req)

    class HttpsHandler(urllib.request.HTTPSHandler):
        def https_open(self, req):  # type: ignore[no-untyped-def]
            return self.do_open(Https, req, context=self._context)

    opener = urllib.request.OpenerDirector()
    for handler in (HttpHandler(), HttpsHandler(), _HttpOnlyRedirects(), urllib.request.HTTPErrorProcessor(),
                    urllib.request.HTTPDefaultErrorHandler()):
        opener.add_handler(handler)
    return opener


class _HttpOnlyRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        if urllib.parse.urlparse(newurl).scheme not in ("http", "https"):
            raise TaskError(f"{req.full_url} redirects to {newurl!r}, which is not http(s)")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _download_once(url: str, limit: int, guard: _Guard) -> bytes:
    timeout = max(min(DOWNLOAD_TIMEOUT_S, guard.remaining()), 0.001)
    try:
        with _opener(guard).open(url, timeout=timeout) as response:
            length = response.headers.get("Content-Length")
            if length is not None and length.strip().isdigit() and int(length) > limit:
                raise TaskError(f"{url} is {int(length)} bytes, over the {limit}-byte download limit")
            chunks, size = [], 0
            while True:
                guard.check_time(url)
                chunk = response.read1(64 * 1024)  # one network read at a time: the deadline is checked between
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
                if size > limit:
                    raise TaskError(f"{url} is over the {limit}-byte download limit")
    except (OSError, http.client.HTTPException):
        guard.check_time(url)  # a socket shut down by the deadline reads as an error: report the deadline
        raise
    guard.check_time(url)  # a socket shut down by the deadline can also read as a (short) end of file
    return b"".join(chunks)


def download_deadline() -> float:
    """Seconds the whole download of one URL may take: $MOBILEGYM_DOWNLOAD_DEADLINE or DOWNLOAD_DEADLINE_S."""
    raw = os.environ.get(DEADLINE_ENV)
    if raw:
        try:
            value = float(raw)
        except ValueError:
            value = math.nan
        if not 0 < value < math.inf:
            raise TaskError(f"${DEADLINE_ENV} must be a positive number of seconds, got {raw!r}")
        return value
    return DOWNLOAD_DEADLINE_S


def fetch(url: str, task_dir: Path, allow_hosts: Iterable[str] = (), deadline_s: float | None = None) -> bytes:
    """The bytes a URL names: a file in the task folder, or an http(s) download.

    Downloads are off unless the URL's host is allowed (``$MOBILEGYM_ALLOW_HOSTS``,
    :func:`allow_download_hosts`, :func:`download_hosts` or ``allow_hosts``); a host allowed only by a
    wildcard must resolve to public addresses. They are cached under :func:`cache_dir` by
    ``uuid5(NAMESPACE_URL, url)``, tried :data:`DOWNLOAD_ATTEMPTS` times within one total
    deadline (``deadline_s``, default :func:`download_deadline`), and refused over
    :data:`MAX_DOWNLOAD_BYTES`.
    """
    parts = check_url(url)
    if parts.scheme == "file":
        path = local_file(url, task_dir)
        if not path.is_file():
            raise TaskError(f"{url!r}: no such file {path}")
        if path.stat().st_size > MAX_DOWNLOAD_BYTES:
            raise TaskError(f"{path} is over the {MAX_DOWNLOAD_BYTES}-byte file limit")
        return path.read_bytes()
    allow_hosts = list(allow_hosts)
    if not parts.hostname:
        raise TaskError(f"URL {url!r} names no host")
    if host_permission(parts.hostname, allow_hosts) is None:
        raise TaskError(_not_allowed(parts.hostname))
    cached = cache_dir() / str(uuid.uuid5(uuid.NAMESPACE_URL, url))
    if cached.is_file():
        return cached.read_bytes()
    errors: list[str] = []
    with _Guard(allow_hosts, download_deadline() if deadline_s is None else deadline_s) as guard:
        for attempt in range(DOWNLOAD_ATTEMPTS):
            try:
                data = _download_once(url, MAX_DOWNLOAD_BYTES, guard)
                break
            except (OSError, http.client.HTTPException) as exc:  # URLError and HTTPError are OSErrors
                errors.append(f"attempt {attempt + 1}: {exc}")
                if attempt + 1 < DOWNLOAD_ATTEMPTS:
                    time.sleep(max(min(RETRY_DELAY_S * (attempt + 1), guard.remaining()), 0.0))
                    guard.check_time(url)
        else:
            raise TaskError(f"could not download {url}: {'; '.join(errors)}")
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(f".{os.getpid()}.part")
    partial.write_bytes(data)
    partial.replace(cached)
    return data


# ---------------------------------------------------------------- handlers


@setup_action("set_state")
def _set_state(ctx: SetupContext, p: dict[str, Any]) -> None:
    """Deep-merge ``patch`` into the world document."""
    require(ctx.device, CAP_STATE, "set_state")
    _apply_patch(ctx, p["patch"], "set_state patch")


def _apply_patch(ctx: SetupContext, patch: Any, what: str) -> None:
    """Check the patch's value types against the phone's state, then apply it (a task error if refused)."""
    if not isinstance(patch, dict):
        raise TaskError(f"{what} must be an object, got {json_type(patch)}")
    unknown = sorted(set(patch) - {"os", "apps"})
    if unknown:
        raise TaskError(f"{what} rejected: its keys must be 'os' or 'apps', got {unknown}")
    problems = patch_type_problems(read_state(ctx.device), patch)
    if problems:
        raise TaskError(f"{what} rejected: {'; '.join(f'{path}: {message}' for path, message in problems)}")
    try:
        ctx.device.set_state(patch)
    except ValueError as exc:
        raise TaskError(f"{what} rejected: {exc}") from exc


@setup_action("prepare")
def _prepare(ctx: SetupContext, p: dict[str, Any]) -> None:
    """Make a precondition true in whatever world the phone holds: ``app``'s preparer ``with`` (see
    ``SimApp.preparer``) builds a patch from the current state, seeded by the task and episode."""
    require(ctx.device, CAP_PREPARE, "prepare")
    rng = random.Random(ctx.seed)
    spread = Spread(ctx.task_id, ctx.spread_seed, rng) if ctx.spreads else None
    try:
        patch = ctx.device.prepare_patch(p["app"], p["with"], p.get("args", {}), rng=rng, spread=spread)
    except ValueError as exc:  # no such app or preparer
        raise TaskError(str(exc)) from None
    _apply_patch(ctx, patch, f"prepare {p['app']}.{p['with']}: patch")


@setup_action("reset_app")
def _reset_app(ctx: SetupContext, p: dict[str, Any]) -> None:
    """Put one app's data back to its defaults.json (state devices) or clear it (``pm clear`` over a shell).

    On a shell-only device ``app`` may also be an Android package name (it contains a dot).
    """
    if CAP_STATE not in ctx.device.capabilities:
        require(ctx.device, CAP_SHELL, "reset_app")
        ctx.device.shell(f"pm clear {p['app'] if '.' in p['app'] else _known(app_package, p['app'])}")
        return
    defaults = _known(app_defaults, p["app"])
    ctx.device.set_state({"apps": {p["app"]: None}})  # two steps: a merge patch cannot drop keys
    ctx.device.set_state({"apps": {p["app"]: defaults}})


def _known(fact: Callable[[str], T], app_id: str) -> T:
    """An app's fact (its package, its defaults); a task error when no such app is installed."""
    try:
        return fact(app_id)
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


def _seconds(p: dict[str, Any], kind: str, limit: float) -> float:
    seconds = p.get("seconds")
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 0 < seconds <= limit:
        raise TaskError(f"{kind} seconds must be a number in (0, {limit:g}], got {seconds!r}")
    return float(seconds)


@setup_action("advance_time")
def _advance_time(ctx: SetupContext, p: dict[str, Any]) -> None:
    """Let the phone's clock run ``seconds`` (at most a day). A device without app state (a real
    phone, whose clock cannot be moved) waits in real time, at most :data:`MAX_REAL_WAIT_S`."""
    seconds = _seconds(p, "advance_time", MAX_ADVANCE_S)
    if CAP_STATE not in ctx.device.capabilities and seconds > MAX_REAL_WAIT_S:
        raise TaskError(f"advance_time of {seconds:g} s on {type(ctx.device).__name__} would wait in real time; "
                        f"at most {MAX_REAL_WAIT_S:g} s there")
    ctx.device.wait(seconds)


@setup_action("sleep")
def _sleep(ctx: SetupContext, p: dict[str, Any]) -> None:
    """A short pause of ``seconds`` (at most :data:`MAX_SLEEP_S`; the clock runs on the simulated phone)."""
    ctx.device.wait(_seconds(p, "sleep", MAX_SLEEP_S))


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
    require(ctx.device, CAP_LAUNCH, "launch")
    ctx.device.launch(p["app"], p["route"])
