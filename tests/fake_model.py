"""A small OpenAI-compatible model server on loopback for the eval tests: ``GET /v1/models`` and
``POST /v1/chat/completions`` answered by a function of the request, in a thread; every request recorded."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

Answer = Callable[[dict[str, Any]], "tuple[int, Any] | str"]


def completion(text: str) -> dict[str, Any]:
    """A chat-completions body whose message is ``text``."""
    return {"id": "c", "object": "chat.completion", "model": "fake",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}


class LoopbackServer:
    """A threaded HTTP server on a free loopback port serving ``handler``; ``stop`` is set at exit, so a
    request that waits on it ends. A context manager: ``with Server(...) as server: server.url``."""

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self.stop = threading.Event()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> Any:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()


class FakeModel(LoopbackServer):
    """``answer(body)`` gives the reply text (200) or ``(status, body)``; ``models`` is what /models lists
    (None: /models is 404, as on servers that do not list models)."""

    def __init__(self, answer: Answer, models: list[str] | None = None) -> None:
        self.answer, self.models = answer, models
        self.requests: list[tuple[str, str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _send(self, status: int, body: Any) -> None:
                payload = (body if isinstance(body, str) else json.dumps(body)).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def do_GET(self) -> None:
                server.requests.append(("GET", self.path, None))
                if self.path.endswith("/models") and server.models is not None:
                    self._send(200, {"object": "list", "data": [{"id": m, "object": "model"} for m in server.models]})
                else:
                    self._send(404, {"error": "not found"})

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append(("POST", self.path, body))
                out = server.answer(body)
                status, reply = (200, completion(out)) if isinstance(out, str) else out
                self._send(status, reply)

        super().__init__(Handler)
