"""A tiny threaded HTTP/1.1 framework with FastAPI-like defaults for routes nobody declared."""
import json
import re
import socket
import sys
import time
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

CATEGORY = {400: "CategoryValidationFailure", 401: "CategoryUnauthorized", 422: "CategoryValidationFailure",
            429: "CategoryTransientFailure", 500: "CategoryInternalFailure"}


class ApiError(Exception):
    """A section 7 error body: reason, description, category from the status, details."""

    def __init__(self, status, reason, message, details=None, headers=None):
        super().__init__(message)
        self.status, self.reason, self.message = status, reason, message
        self.details = details or []
        self.headers = headers or {}

    def body(self):
        return {"error_reason": self.reason, "error_description": self.message,
                "error_category": {"category": CATEGORY.get(self.status, "CategoryInternalFailure"),
                                   "http_status_code": self.status},
                "error_details": self.details}


def field_error(reason, message, field, row=False):
    """A request-validation error; `row`: a section 7 row or rule fixes its answer (else, with
    --pydantic-422, it is answered the way FastAPI answers a failed request model)."""
    err = ApiError(400, reason, message, [{"key": "field", "details": field}])
    err.rowless, err.field = not row, field
    return err


class Request:
    def __init__(self, method, target, headers, raw, client_ip):
        parts = urlsplit(target)
        self.method, self.path, self.raw_query = method, parts.path, parts.query
        self.query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        self.headers, self.raw, self.client_ip = headers, raw, client_ip
        self.params = {}
        self.ctx = {}

    def header(self, name):
        value = self.headers.get(name)
        return value.strip() if isinstance(value, str) else None

    def json(self):
        if not self.raw:
            return {}
        try:
            data = json.loads(self.raw)
        except ValueError:
            raise field_error("ErrorInvalidField", "Request body is not valid JSON", "body")
        if not isinstance(data, dict):
            raise field_error("ErrorInvalidField", "Request body must be a JSON object", "body")
        return data


class Response:
    def __init__(self, status=200, body=None, headers=None):
        self.status, self.body, self.headers = status, body, headers or {}


def strip_none(value):
    """FastAPI's response_model_exclude_none: fields whose value is None are left out."""
    if isinstance(value, dict):
        return {k: strip_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [strip_none(v) for v in value]
    return value


class App:
    def __init__(self, name):
        self.name = name
        self.exclude_none = False
        self.pydantic_422 = False
        self.log_errors = False
        self.routes = []  # (method, regex, handler)
        self.lock = threading.RLock()

    def route(self, method, pattern):
        regex = re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", pattern) + "$")

        def register(fn):
            self.routes.append((method, regex, fn))
            return fn
        return register

    def _match(self, path):
        return [(m, rx.match(path), fn) for m, rx, fn in self.routes if rx.match(path)]

    def dispatch(self, req):
        matches = self._match(req.path)
        if not matches:
            if req.path.endswith("/") and len(req.path) > 1 and self._match(req.path.rstrip("/")):
                location = req.path.rstrip("/") + ("?" + req.raw_query if req.raw_query else "")
                return Response(307, None, {"location": location})
            return Response(404, {"detail": "Not Found"})
        for method, match, fn in matches:
            if method == req.method:
                req.params = match.groupdict()
                try:
                    with self.lock:
                        return fn(req)
                except ApiError as err:
                    if self.pydantic_422 and getattr(err, "rowless", False):
                        # Pydantic's status, in the section 7 body (FastAPI's default {"detail": [...]}
                        # fails ERR-BODY-SHAPE: the body shape is read as that of every error answer).
                        err.status = 422
                    return Response(err.status, err.body(), err.headers)
        allow = ", ".join(sorted({m for m, _, _ in matches}))
        return Response(405, {"detail": "Method Not Allowed"}, {"allow": allow})


def offered_tls_version(sock):
    """Highest TLS version a ClientHello offers (0x0303 = TLS 1.2), read with MSG_PEEK; 0 if unreadable."""
    data = b""
    for _ in range(20):
        data = sock.recv(16389, socket.MSG_PEEK)
        if len(data) >= 5 and len(data) >= 5 + int.from_bytes(data[3:5], "big") or not data:
            break
        time.sleep(0.05)
    try:
        if data[0] != 0x16 or data[5] != 0x01:
            return 0
        pos = 9
        best = int.from_bytes(data[pos:pos + 2], "big")
        pos += 2 + 32
        pos += 1 + data[pos]
        pos += 2 + int.from_bytes(data[pos:pos + 2], "big")
        pos += 1 + data[pos]
        end = pos + 2 + int.from_bytes(data[pos:pos + 2], "big")
        pos += 2
        while pos + 4 <= end:
            kind, size = int.from_bytes(data[pos:pos + 2], "big"), int.from_bytes(data[pos + 2:pos + 4], "big")
            if kind == 43:  # supported_versions
                listed = data[pos + 5:pos + 5 + data[pos + 4]]
                best = max(int.from_bytes(listed[i:i + 2], "big") for i in range(0, len(listed), 2))
            pos += 4 + size
        return best
    except (IndexError, ValueError):
        return 0


def serve(app, port, ssl_context=None):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def version_string(self):
            return "uvicorn"

        def log_message(self, *args):
            pass

        def setup(self):
            # TLS runs here, in the connection's own thread. Section 8: TLS 1.2 or newer; a client that
            # offers only 1.0/1.1 gets the connection closed without an alert, as many load balancers do.
            if ssl_context is not None:
                self.request.settimeout(15)
                if offered_tls_version(self.request) < 0x0303:
                    raise ConnectionAbortedError("client offers no TLS 1.2 or newer")
                self.request = ssl_context.wrap_socket(self.request, server_side=True)
                self.request.settimeout(None)
            super().setup()

        def finish(self):
            try:
                super().finish()
            finally:
                if ssl_context is not None:
                    self.request.close()

        def _handle(self):
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length) if length else b""
            req = Request(self.command, self.path, self.headers, raw, self.client_address[0])
            try:
                res = app.dispatch(req)
            except Exception as exc:  # the framework's own 500, never a hang
                res = Response(500, ApiError(500, "ErrorInternal", f"Internal error: {type(exc).__name__}").body())
            if app.log_errors and res.status >= 400:
                print(json.dumps({"method": self.command, "path": self.path, "status": res.status,
                                  "request": raw.decode("utf-8", "replace")[:500], "answer": res.body}),
                      file=sys.stderr, flush=True)
            body = strip_none(res.body) if app.exclude_none else res.body
            payload = b"" if body is None else json.dumps(body).encode()
            self.send_response(res.status)
            for key, value in res.headers.items():
                self.send_header(key, value)
            if res.body is not None:
                self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(payload)

        do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = _handle

    class Server(ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request, client_address):
            pass  # a refused handshake or a dropped client closes that connection, nothing more

    server = Server(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
