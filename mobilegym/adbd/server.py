"""The simulated phone served over the ADB transport protocol.

``AdbdServer(phone).start()`` listens on 127.0.0.1 (an ephemeral port by default); after
``adb connect 127.0.0.1:PORT`` the real adb server, adbutils and any ADB tool can drive the
phone: ``shell:`` / ``shell,v2:`` / ``exec:`` run the commands of :mod:`mobilegym.adbd.commands`, ``sync:`` serves push/pull over the phone's virtual file system.
No authentication is asked for. Every phone call holds one lock, so concurrent streams are
safe; :class:`Limits` bounds what one client may hold (connections, streams, buffered bytes,
idle time).
"""
from __future__ import annotations

import logging
import socket
import sys
import threading
from typing import Any

from .auth import PublicKey, load_keys
from .commands.android import all_props
from .commands.system import new_log
from .services import make_resolver
from .shell import Shell
from .transport import Connection, Limits, StreamBudget
from ..sim.vfs import VirtualFS

log = logging.getLogger(__name__)
FEATURES = ("shell_v2", "cmd", "stat_v2", "fixed_push_mkdir")


class AdbdServer:
    """A TCP server (loopback by default) speaking the device side of ADB for one phone.

    ``extensions=False`` hides the `mobilegym` shell command, so clients see a stock phone
    (no app state): useful to test real-device code paths. With ``keys`` (authorized ADB public keys,
    :func:`mobilegym.adbd.auth.load_keys`) a host must sign the device's token with one of them, as a real
    phone asks; without them every host that reaches the port is let in.
    """

    def __init__(self, phone: Any, host: str = "127.0.0.1", port: int = 0, *,
                 lock: threading.RLock | None = None, props: dict[str, str] | None = None,
                 extensions: bool = True, limits: Limits | None = None,
                 keys: tuple[PublicKey, ...] | None = None) -> None:
        self.phone = phone
        self.keys = keys
        self.limits = limits or Limits()
        self.extensions = extensions
        self.host = host
        self.port = port
        self.lock = lock or threading.RLock()
        self.props = dict(props or {})
        self.settings: dict[tuple[str, str], str] = {}
        self.services: dict[str, Any] = {}  # the clipboard, the display size override: see Shell.services
        self.logs = new_log()  # what `logcat` shows, shared by every shell of this server
        self._fallback_files: VirtualFS | None = None
        self._listener: socket.socket | None = None
        self._connections: dict[Connection, str] = {}  # -> the peer's address
        self._budgets: dict[str, StreamBudget] = {}     # peer address -> its open streams
        self._threads: list[threading.Thread] = []
        self._guard = threading.Lock()
        self._stopped = threading.Event()

    # lifecycle -------------------------------------------------------------------
    def start(self) -> AdbdServer:
        """Bind and accept connections in a background thread; returns self."""
        if self._listener is not None:
            raise RuntimeError("the ADB server is already running")
        if not isinstance(self.port, int) or not 0 <= self.port <= 65535:
            raise OSError(22, f"cannot listen on {self.host}:{self.port}: the port must be in 0-65535")
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            listener.bind((self.host, self.port))
        except (OSError, OverflowError) as exc:
            listener.close()
            raise OSError(getattr(exc, "errno", None) or 22,
                          f"cannot listen on {self.host}:{self.port}: {getattr(exc, 'strerror', None) or exc}") from None
        listener.listen(8)
        self._listener = listener
        self.port = listener.getsockname()[1]
        self._stopped.clear()
        self._spawn(self._accept_loop, "adbd-accept")
        log.info("adbd: serving the simulated phone on %s", self.serial)
        return self

    @property
    def serial(self) -> str:
        """The adb serial after `adb connect`: HOST:PORT."""
        return f"{self.host}:{self.port}"

    def serve_forever(self) -> None:
        """Start (if needed) and block until :meth:`close` or Ctrl-C."""
        if self._listener is None:
            self.start()
        try:
            while not self._stopped.wait(0.5):
                pass
        except KeyboardInterrupt:
            pass
        finally:
            self.close()

    def close(self, timeout: float = 2.0) -> None:
        """Stop listening, drop every connection and wait for the threads."""
        self._stopped.set()
        listener, self._listener = self._listener, None
        if listener is not None:
            try:
                listener.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            listener.close()
        with self._guard:
            connections, threads = list(self._connections), list(self._threads)
        for conn in connections:
            conn.close()
        threads += [t for conn in connections for t in conn.threads]
        for thread in threads:
            if thread is not threading.current_thread():
                thread.join(timeout)

    def __enter__(self) -> AdbdServer:
        return self.start() if self._listener is None else self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # internals -------------------------------------------------------------------
    def _spawn(self, target: Any, name: str, *args: Any) -> None:
        thread = threading.Thread(target=target, args=args, name=name, daemon=True)
        with self._guard:
            self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        thread.start()

    def banner(self) -> str:
        """The CNXN banner: device identity and the features this server implements."""
        props = all_props(self.phone, self.lock, self.props)
        fields = ";".join(f"{k}={props[k].replace(' ', '_')}" for k in ("ro.product.name", "ro.product.model", "ro.product.device"))
        return f"device::{fields};features={','.join(FEATURES)}"

    def files(self) -> VirtualFS:
        """The phone's file system (looked up each time: a state reset replaces it)."""
        found = getattr(self.phone, "files", None)
        if found is None:
            if self._fallback_files is None:
                self._fallback_files = VirtualFS(clock=self.phone.time_ms)  # default quota
            found = self._fallback_files
        return found

    def new_shell(self) -> Shell:
        """A shell sharing this server's lock, properties and unmapped settings."""
        return Shell(self.phone, lock=self.lock, props=self.props, settings=self.settings,
                     files=self.files(), extensions=self.extensions, logs=self.logs,
                     services=self.services)

    def _accept_loop(self) -> None:
        resolver = make_resolver(self.new_shell, self.files)
        while not self._stopped.is_set():
            listener = self._listener
            if listener is None:
                return
            try:
                sock, _ = listener.accept()
            except OSError:
                return
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            peer = sock.getpeername()[0] if sock.family in (socket.AF_INET, socket.AF_INET6) else ""
            with self._guard:
                total = len(self._connections)
                mine = sum(1 for p in self._connections.values() if p == peer)
            if total >= self.limits.max_connections or mine >= self.limits.max_connections_per_client:
                log.warning("adbd: refusing a connection from %s (%d open from it, %d in all)", peer, mine, total)
                sock.close()
                continue
            try:
                with self._guard:
                    budget = self._budgets.setdefault(peer, StreamBudget(self.limits.max_streams_per_client))
                conn = Connection(sock, self.banner(), resolver, self.limits, budget, self.keys)
            except Exception:  # e.g. the state document cannot be read: refuse this one, keep serving
                log.exception("adbd: cannot set up a connection")
                sock.close()
                continue
            with self._guard:
                self._connections[conn] = peer
            self._spawn(self._serve_connection, "adbd-conn", conn)

    def _serve_connection(self, conn: Connection) -> None:
        try:
            conn.serve()
        finally:
            with self._guard:
                self._connections.pop(conn, None)


def serve_adb_main(args: Any) -> int:
    """`mobilegym serve-adb`: serve a fresh simulated phone until Ctrl-C (beyond loopback only to hosts holding an
    authorized key)."""
    from ..serve import is_loopback
    from ..sim.phone import Phone

    keys = None
    try:
        if args.auth_keys is not None:
            keys = load_keys(args.auth_keys)
        elif not is_loopback(args.host):
            raise ValueError(f"listening on {args.host} (beyond loopback) needs --auth-keys FILE: the ADB public "
                             "keys (adbkey.pub lines) of the hosts allowed in")
        phone = Phone(args.width, args.height, render_scale=args.render_scale, language=args.language,
                      world=args.world)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    server = AdbdServer(phone, args.host, args.port, keys=keys)
    try:
        server.start()
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    allowed = f", {len(keys)} authorized key(s)" if keys else ""
    print(f"serving the simulated phone ({args.width}x{args.height}) on {server.serial}{allowed}\n"
          f"  adb connect {server.serial}\n  adb -s {server.serial} shell mobilegym help\n"
          "press Ctrl-C to stop", flush=True)
    server.serve_forever()
    return 0
