"""The HTTP/WebSocket front: routes, the bearer token, request size bounds; the work runs in the pool.

MobileGym's own API lives under ``/v1`` (see docs); OpenEnv's routes (``/ws``, ``/reset``, ``/step``,
``/state``, ``/schema``, ``/metadata``, ``/health``) sit beside it.
"""
from __future__ import annotations

import contextlib
import hmac
import json
from typing import Any, Mapping

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from . import openenv
from .errors import ServeError, bad_request
from .pool import Pool
from .wire import pack_frame

FRAME_TYPE = "application/x-mobilegym-frame"
SESSION_OPS = ("reset", "step", "fork", "snapshot", "restore", "drop_snapshot", "judge", "tasks", "state")
OPEN_PATHS = ("/health",)


def _error(exc: ServeError) -> JSONResponse:
    return JSONResponse(exc.to_dict(), exc.status)


def _authorized(headers: Mapping[str, str], token: str | None) -> bool:
    if token is None:
        return True
    given = headers.get("authorization", "")
    return hmac.compare_digest(given.encode(), f"Bearer {token}".encode())


def _unauthorized() -> ServeError:
    return ServeError(401, "unauthorized", "a valid 'Authorization: Bearer TOKEN' header is required")


def parse_json(body: bytes) -> dict[str, Any]:
    """A request body as a JSON object (an empty body is {})."""
    if not body.strip():
        return {}
    try:
        value = json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise bad_request("malformed_json", f"the body is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise bad_request("malformed_json", f"the body must be a JSON object, got {type(value).__name__}")
    return value


async def _read_body(request: Request, limit: int) -> dict[str, Any]:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ServeError(413, "request_too_large", f"the body ({declared} bytes) exceeds {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ServeError(413, "request_too_large", f"the body exceeds {limit} bytes")
    return parse_json(bytes(body))


def build_app(pool: Pool, *, token: str | None, default_make: Mapping[str, Any]) -> Starlette:
    """The server's ASGI app over ``pool``."""
    limits = pool.limits

    def style_of(request: Request) -> str:
        return "frame" if FRAME_TYPE in request.headers.get("accept", "") else "json"

    def reply(status: int, body: bytes, style: str) -> Response:
        return Response(body, status, media_type=FRAME_TYPE if style == "frame" else "application/json")

    async def guarded(request: Request, work: Any) -> Response:
        try:
            if not _authorized(request.headers, token):
                raise _unauthorized()
            return await work()
        except ServeError as exc:
            return _error(exc)

    async def health(request: Request) -> Response:
        return JSONResponse({"status": "healthy"})

    async def info(request: Request) -> Response:
        async def work() -> Response:
            return JSONResponse({"sessions": pool.active, "workers": pool.describe(),
                                 "limits": {k: getattr(limits, k) for k in limits.__dataclass_fields__}})
        return await guarded(request, work)

    async def create(request: Request) -> Response:
        async def work() -> Response:
            body = await _read_body(request, limits.max_request_bytes)
            status, out, _ = await pool.create(body.get("make") or {}, body.get("image"), style_of(request))
            return reply(status, out, style_of(request))
        return await guarded(request, work)

    async def session_op(request: Request) -> Response:
        async def work() -> Response:
            op = request.path_params["op"]
            if op not in SESSION_OPS:
                raise ServeError(404, "unknown_op", f"unknown session operation {op!r}; known: {', '.join(SESSION_OPS)}")
            body = await _read_body(request, limits.max_request_bytes)
            status, out = await pool.call(request.path_params["sid"], op, body, style_of(request))
            return reply(status, out, style_of(request))
        return await guarded(request, work)

    async def close(request: Request) -> Response:
        async def work() -> Response:
            status, out = await pool.call(request.path_params["sid"], "close", None, "json")
            return reply(status, out, "json")
        return await guarded(request, work)

    async def ws_v1(websocket: WebSocket) -> None:
        if not await _accept(websocket, token):
            return
        try:
            while True:
                raw = await websocket.receive_text()
                style = "frame"
                try:
                    message = parse_json(raw.encode())
                    style = "json" if message.get("style") == "json" else "frame"
                    op, args = message.get("op"), message.get("args") or {}
                    if not isinstance(args, dict):
                        raise bad_request("malformed_json", "args must be an object")
                    if op == "create":
                        status, out, _ = await pool.create(args.get("make") or {}, args.get("image"), style)
                    elif op in SESSION_OPS or op == "close":
                        status, out = await pool.call(str(message.get("session")), op, args, style)
                    else:
                        raise bad_request("unknown_op", f"unknown operation {op!r}")
                except ServeError as exc:
                    out = pack_frame(exc.to_dict(), []) if style == "frame" else json.dumps(exc.to_dict()).encode()
                if style == "frame":
                    await websocket.send_bytes(out)
                else:
                    await websocket.send_text(out.decode())
        except WebSocketDisconnect:
            pass

    async def ws_openenv(websocket: WebSocket) -> None:
        if not await _accept(websocket, token):
            return
        session = openenv.OpenEnvSession(pool, default_make)
        try:
            while True:
                raw = await websocket.receive_text()
                try:
                    message = json.loads(raw)
                except ValueError as exc:
                    await websocket.send_text(json.dumps({"type": "error", "data": {
                        "message": f"Invalid JSON: {exc}", "code": "malformed_json"}}))
                    continue
                if isinstance(message, dict) and message.get("type") == "close":
                    break
                await websocket.send_text((await session.handle(message)).decode())
        except WebSocketDisconnect:
            pass
        finally:
            await session.close()
        try:
            await websocket.close()
        except RuntimeError:
            pass

    async def openenv_reset(request: Request) -> Response:
        async def work() -> Response:
            data = openenv.reset_args(await _read_body(request, limits.max_request_bytes))
            make, image = data.pop("make", None), data.pop("image", None)
            status, out, sid = await pool.create(make if make is not None else default_make, image, "json")
            if sid is None:
                return reply(status, out, "json")
            try:
                status, out = await pool.call(sid, "reset", data, "json")
            finally:
                await pool.close_session(sid)
            if status != 200:
                return reply(status, out, "json")
            return JSONResponse(openenv.envelope("reset", json.loads(out), status)["data"])
        return await guarded(request, work)

    async def openenv_step(request: Request) -> Response:
        async def work() -> Response:
            raise ServeError(409, "needs_session", "a step needs the episode of a session: use the /ws WebSocket "
                                                   "(OpenEnv's EnvClient) or /v1/sessions")
        return await guarded(request, work)

    async def openenv_state(request: Request) -> Response:
        return await guarded(request, _json({"episode_id": None, "step_count": 0, "task_id": None}))

    async def openenv_schema(request: Request) -> Response:
        return await guarded(request, _json(openenv.schemas()))

    async def openenv_metadata(request: Request) -> Response:
        return await guarded(request, _json(openenv.metadata(limits.max_sessions, limits.idle_timeout_s)))

    async def http_error(request: Request, exc: HTTPException) -> Response:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return JSONResponse({"error": code, "message": str(exc.detail)}, exc.status_code)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        await pool.start()
        yield

    routes = [
        Route("/health", health), Route("/v1/info", info), Route("/v1/sessions", create, methods=["POST"]),
        Route("/v1/sessions/{sid}", close, methods=["DELETE"]),
        Route("/v1/sessions/{sid}/{op}", session_op, methods=["POST"]), WebSocketRoute("/v1/ws", ws_v1),
        WebSocketRoute("/ws", ws_openenv), Route("/reset", openenv_reset, methods=["POST"]),
        Route("/step", openenv_step, methods=["POST"]), Route("/state", openenv_state),
        Route("/schema", openenv_schema), Route("/metadata", openenv_metadata),
    ]
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers={HTTPException: http_error})


def _json(body: Any) -> Any:
    async def work() -> Response:
        return JSONResponse(body)
    return work


async def _accept(websocket: WebSocket, token: str | None) -> bool:
    """Accept the WebSocket when its token is right; otherwise refuse the upgrade with a 401 JSON body."""
    if _authorized(websocket.headers, token):
        await websocket.accept()
        return True
    denial = _error(_unauthorized())
    try:
        await websocket.send_denial_response(denial)
    except RuntimeError:  # the server cannot send an HTTP response to an upgrade: close with a policy violation
        await websocket.close(code=1008, reason="unauthorized")
    return False
