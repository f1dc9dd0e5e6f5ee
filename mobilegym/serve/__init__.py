"""``mobilegym serve``: MobileGym environments over HTTP and WebSocket, for many clients at once.

Sessions are made with ``gym.make("MobileGym-v0", ...)``'s keyword arguments and run in worker
processes (:mod:`.pool`); the front (:mod:`.app`) relays requests to them. The same server speaks
OpenEnv's protocol (:mod:`.openenv`); :class:`mobilegym.remote.RemoteEnv` is its Gymnasium client.
Needs the ``serve`` extra: ``pip install "mobilegym[serve]"``.
"""
from __future__ import annotations

import argparse
import ipaddress
import json
import os
import socket
import sys
from typing import Any

TOKEN_ENV = "MOBILEGYM_SERVE_TOKEN"


def require(module: str) -> Any:
    """Import an optional dependency of the server or its client, or say which extra installs it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(f"mobilegym serve and RemoteEnv need {module!r}: pip install \"mobilegym[serve]\"") from None


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve_main(args: argparse.Namespace) -> int:
    """Run the server until Ctrl-C; prints ``serving on http://HOST:PORT`` once it listens."""
    try:
        require("starlette")
        uvicorn = require("uvicorn")
    except ImportError as exc:  # the command line says what to install, without a traceback
        print(f"mobilegym serve: error: {exc}", file=sys.stderr)
        return 1
    from .app import build_app
    from .pool import Limits, Pool

    token = args.token or os.environ.get(TOKEN_ENV) or None
    if not is_loopback(args.host) and token is None:
        raise ValueError(f"binding {args.host} (beyond loopback) needs a bearer token: --token or ${TOKEN_ENV}")
    try:
        default_make = json.loads(args.make)
    except ValueError as exc:
        raise ValueError(f"--make must be a JSON object of gym.make arguments: {exc}") from None
    if not isinstance(default_make, dict):
        raise ValueError("--make must be a JSON object of gym.make arguments")
    from .errors import ServeError
    from .worker import check_make_kwargs

    try:
        check_make_kwargs(default_make)
    except ServeError as exc:
        raise ValueError(f"--make: {exc.message}") from None
    limits = Limits(max_sessions=args.max_sessions, idle_timeout_s=args.idle_timeout,
                    max_request_bytes=args.max_request_bytes, max_response_bytes=args.max_response_bytes)
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as exc:
        sock.close()
        raise OSError(exc.errno, f"cannot listen on {args.host}:{args.port}: {exc.strerror}") from None
    sock.listen(256)  # connections wait in the backlog until the app has started
    pool = Pool(args.workers, limits)
    try:
        config = uvicorn.Config(build_app(pool, token=token, default_make=default_make), log_level="warning",
                                ws="websockets-sansio", ws_max_size=limits.max_request_bytes, ws_ping_interval=None,
                                lifespan="on", timeout_keep_alive=30,
                                limit_concurrency=max(64, 4 * limits.max_sessions))  # connections + requests
        port = sock.getsockname()[1]
        print(f"serving on http://{args.host}:{port} ({len(pool.workers)} workers, at most {limits.max_sessions} "
              f"sessions{', token required' if token else ''})", flush=True)
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        pool.close()
        sock.close()
    return 0


def add_serve_parser(sub: Any, number: Any) -> None:
    """The ``serve`` subcommand; ``number(kind, lo, hi)`` makes bounded argparse number types."""
    from .pool import Limits, default_workers

    p = sub.add_parser("serve", help="serve MobileGym environments over HTTP/WebSocket (RemoteEnv, OpenEnv)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1; beyond loopback "
                                                       "a token is required)")
    p.add_argument("--port", type=number(int, 0, 65535), default=8000, help="TCP port (default 8000; 0: a free one)")
    p.add_argument("--token", help=f"bearer token every request must carry (default ${TOKEN_ENV})")
    p.add_argument("--workers", type=number(int, 1, 256), default=default_workers(),
                   help="worker processes holding the sessions (default: one per core)")
    p.add_argument("--max-sessions", type=number(int, 1, 100_000), default=Limits.max_sessions)
    p.add_argument("--idle-timeout", type=number(float, 0, 1e7, True), default=Limits.idle_timeout_s,
                   help=f"seconds after which an unused session is closed (default {Limits.idle_timeout_s:g})")
    p.add_argument("--max-request-bytes", type=number(int, 1024, 1 << 30), default=Limits.max_request_bytes)
    p.add_argument("--max-response-bytes", type=number(int, 1024, 1 << 31), default=Limits.max_response_bytes)
    p.add_argument("--make", default="{}", help="JSON gym.make arguments of OpenEnv sessions that send none, "
                                                "e.g. '{\"task\": \"clock.CountAlarms\"}'")
    p.set_defaults(func=lambda args: serve_main(args))


__all__ = ["TOKEN_ENV", "add_serve_parser", "is_loopback", "serve_main"]
