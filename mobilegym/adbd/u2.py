"""uiautomator2's on-device server, served by the simulated phone itself.

uiautomator2 pushes ``u2.jar``, starts it with ``CLASSPATH=/data/local/tmp/u2.jar app_process /
com.wetest.uia2.Main -p PORT`` (a shell stream it keeps open while the server should run) and talks
JSON-RPC over HTTP to device port PORT (``tcp:PORT`` streams). No jar runs here: while such a launch
stream is open, ``tcp:PORT`` answers ``GET /ping`` and ``POST /jsonrpc/0`` with the methods below,
each done on the phone as the jar does it on Android. Any other method is a JSON-RPC error naming it.
"""
from __future__ import annotations

import base64
import io
import json
import re
import threading
from typing import Any, Callable

from PIL import Image

from .shell import Shell
from .transport import Stream, StreamClosed

JAR = "/data/local/tmp/u2.jar"
DEFAULT_PORT = 9008
LAUNCH = re.compile(r"\s*CLASSPATH=(\S+)\s+app_process\s+\S+\s+com\.wetest\.uia2\.Main(?:\s+-p\s+(\d+))?\s*")
MAX_REQUEST = 1 << 20  # bytes of one HTTP request
KEYS = {"back": "back", "home": "home", "enter": "enter", "delete": "delete", "del": "delete", "recent": "recent"}
PORTS = "u2_ports"  # Shell.services entry: device ports with a running server -> open launch streams


class RpcError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def launch_port(command: str) -> tuple[str, int] | None:
    """(classpath, port) when ``command`` starts uiautomator2's server, else None."""
    match = LAUNCH.fullmatch(command)
    if match is None:
        return None
    return match.group(1), int(match.group(2) or DEFAULT_PORT)


def serve_launch(stream: Stream, shell: Shell, classpath: str, port: int,
                 frame: Callable[[bytes], bytes] | None = None) -> None:
    """The launch stream: the server runs on ``port`` until the host closes this stream (``frame`` wraps output
    for shell protocol v2)."""
    frame = frame or (lambda data: data)
    if not shell.files.exists(classpath):
        stream.write(frame(f"Error: Could not find or load main class com.wetest.uia2.Main (no {classpath}: push "
                     "uiautomator2's u2.jar first)\n".encode()))
        return
    ports: dict[int, int] = shell.services.setdefault(PORTS, {})
    guard = shell.services.setdefault("u2_guard", threading.Lock())
    with guard:
        ports[port] = ports.get(port, 0) + 1
    try:
        stream.write(frame(b"[server] INFO: [UiAutomator2Server] Starting Server (served by the MobileGym simulated "
                           b"phone)\n"))
        while not stream.closed:
            try:
                if not stream.read():
                    break
            except StreamClosed:  # idle: keep serving while the host holds the stream
                if stream.closed:
                    break
    finally:
        with guard:
            ports[port] -= 1
            if not ports[port]:
                del ports[port]


def running(shell: Shell, port: int) -> bool:
    return port in shell.services.get(PORTS, {})


def serve_http(stream: Stream, shell: Shell) -> None:
    """One HTTP/1.1 request on a ``tcp:PORT`` stream, answered and then closed."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = stream.read()
        if not chunk or len(data) > MAX_REQUEST:
            return
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    method, path = (lines[0].split(" ") + ["", ""])[:2]
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    length = int(headers.get("content-length", "0") or 0)
    if length > MAX_REQUEST:
        _respond(stream, 413, b"request too large", "text/plain")
        return
    while len(body) < length:
        chunk = stream.read()
        if not chunk:
            return
        body += chunk
    if method == "GET" and path == "/ping":
        _respond(stream, 200, b"pong", "text/plain")
    elif method == "POST" and path.startswith("/jsonrpc/0"):
        _respond(stream, 200, json.dumps(handle_rpc(shell, body[:length])).encode(), "application/json")
    else:
        _respond(stream, 404, f"no {method} {path} on the MobileGym phone's uiautomator2 server".encode(), "text/plain")


def _respond(stream: Stream, status: int, body: bytes, kind: str) -> None:
    reason = {200: "OK", 404: "Not Found", 413: "Payload Too Large"}[status]
    stream.write(f"HTTP/1.1 {status} {reason}\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n"
                 "Connection: close\r\n\r\n".encode() + body)


def handle_rpc(shell: Shell, body: bytes) -> dict[str, Any]:
    """A JSON-RPC 2.0 request -> its response object."""
    try:
        request = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
    rid = request.get("id") if isinstance(request, dict) else None
    try:
        if not isinstance(request, dict) or not isinstance(request.get("method"), str):
            raise RpcError(-32600, "Invalid Request")
        params = request.get("params") or []
        method = METHODS.get(request["method"])
        if method is None:
            raise RpcError(-32601, f"Method not found: {request['method']} (the MobileGym simulated phone serves "
                                   f"{', '.join(sorted(METHODS))})")
        with shell.lock:
            result = method(shell, *params) if isinstance(params, list) else method(shell, **params)
        return {"jsonrpc": "2.0", "id": rid, "result": result}
    except RpcError as exc:
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": exc.code, "message": exc.message}}
    except (TypeError, ValueError) as exc:
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": f"Invalid params: {exc}"}}
    except Exception as exc:  # an app failure: the phone was put back, the caller hears why
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32000, "message": f"{type(exc).__name__}: {exc}"}}


# --------------------------------------------------------------------------- the methods
def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"expected a number, got {value!r}")
    return int(value)


def device_info(shell: Shell) -> dict[str, Any]:
    from .commands.common import package_of

    phone = shell.phone
    w, h = phone.screen_size
    density = getattr(phone, "density", 3.0)
    return {"currentPackageName": package_of(phone, phone.current_app()), "displayHeight": h, "displayWidth": w,
            "displayRotation": 0, "displaySizeDpX": round(w / density), "displaySizeDpY": round(h / density),
            "naturalOrientation": True, "productName": "mobilegym_phone", "screenOn": True, "sdkInt": 34}


def dump(shell: Shell, compressed: bool = False, max_depth: int = 50, root_in_active: Any = None) -> str:
    return shell.phone.a11y_xml()


def click(shell: Shell, x: Any, y: Any) -> bool:
    shell.phone.tap(_int(x), _int(y))
    return True


def swipe(shell: Shell, fx: Any, fy: Any, tx: Any, ty: Any, steps: Any = 10) -> bool:
    points = [_int(v) for v in (fx, fy, tx, ty)]
    duration = max(10, _int(steps) * 5)  # uiautomator: 5 ms a step
    if abs(points[2] - points[0]) + abs(points[3] - points[1]) <= 8:
        shell.phone.tap(points[0], points[1]) if duration < 400 else shell.phone.long_press(points[0], points[1], duration)
    else:
        shell.phone.swipe(*points, duration)
    return True


def drag(shell: Shell, sx: Any, sy: Any, ex: Any, ey: Any, steps: Any = 10) -> bool:
    shell.phone.drag(*(_int(v) for v in (sx, sy, ex, ey)))
    return True


def screenshot(shell: Shell, scale: Any = 1.0, quality: Any = 80) -> str:
    image = Image.fromarray(shell.phone.screenshot())
    if scale and float(scale) != 1.0:
        factor = float(scale)
        if not 0 < factor <= 1:
            raise ValueError(f"scale must be in (0, 1], got {scale!r}")
        image = image.resize((max(1, round(image.width * factor)), max(1, round(image.height * factor))))
    buf = io.BytesIO()
    image.save(buf, format="JPEG", quality=max(1, min(100, _int(quality))))
    return base64.b64encode(buf.getvalue()).decode()


def set_clipboard(shell: Shell, label: Any = None, text: Any = None) -> None:
    if not isinstance(text, str):
        raise ValueError(f"the clip must be text, got {text!r}")
    shell.services["clipboard"] = text


def get_clipboard(shell: Shell) -> str | None:
    return shell.services.get("clipboard")


def paste_clipboard(shell: Shell) -> bool:
    """Pastes into the focused field: False when no field has focus (nothing to paste into)."""
    clip = shell.services.get("clipboard")
    if clip is None:
        return False
    return shell.phone.type_text(clip) is not False


def clear_input_text(shell: Shell) -> bool:
    return shell.phone.type_text("", True) is not False


def press_key(shell: Shell, key: Any) -> bool:
    name = KEYS.get(str(key).lower())
    if name is None:
        raise RpcError(-32602, f"key {key!r} is not a key of the simulated phone ({', '.join(sorted(KEYS))})")
    shell.phone.key(name)
    return True


def press_key_code(shell: Shell, code: Any, meta: Any = 0) -> bool:
    from .commands.android import CHAR_KEYS, NOOP_KEYS, SIM_KEYS

    code = _int(code)
    if code in SIM_KEYS:
        shell.phone.key(SIM_KEYS[code])
    elif code in CHAR_KEYS:
        shell.phone.type_text(CHAR_KEYS[code])
    elif code not in NOOP_KEYS:
        raise RpcError(-32602, f"key code {code} is not supported by the simulated phone")
    return True


METHODS: dict[str, Callable[..., Any]] = {
    "deviceInfo": device_info, "dumpWindowHierarchy": dump, "click": click, "swipe": swipe, "drag": drag,
    "takeScreenshot": screenshot, "setClipboard": set_clipboard, "getClipboard": get_clipboard,
    "pasteClipboard": paste_clipboard, "clearInputText": clear_input_text, "pressKey": press_key,
    "pressKeyCode": press_key_code,
}
