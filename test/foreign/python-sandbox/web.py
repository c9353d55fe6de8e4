"""A tiny threaded HTTP/1.1 framework with FastAPI-like defaults for routes nobody declared."""
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

CATEGORY = {400: "CategoryValidationFailure", 401: "CategoryUnauthorized",
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


def field_error(reason, message, field):
    return ApiError(400, reason, message, [{"key": "field", "details": field}])


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
            raise ApiError(400, "ErrorInvalidField", "Request body is not valid JSON", [{"key": "field", "details": "body"}])
        if not isinstance(data, dict):
            raise ApiError(400, "ErrorInvalidField", "Request body must be a JSON object", [{"key": "field", "details": "body"}])
        return data


class Response:
    def __init__(self, status=200, body=None, headers=None):
        self.status, self.body, self.headers = status, body, headers or {}


class App:
    def __init__(self, name):
        self.name = name
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
                    return Response(err.status, err.body(), err.headers)
        allow = ", ".join(sorted({m for m, _, _ in matches}))
        return Response(405, {"detail": "Method Not Allowed"}, {"allow": allow})


def serve(app, port, ssl_context=None):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def version_string(self):
            return "uvicorn"

        def log_message(self, *args):
            pass

        def _handle(self):
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length) if length else b""
            req = Request(self.command, self.path, self.headers, raw, self.client_address[0])
            try:
                res = app.dispatch(req)
            except Exception as exc:  # the framework's own 500, never a hang
                res = Response(500, ApiError(500, "ErrorInternal", f"Internal error: {type(exc).__name__}").body())
            payload = b"" if res.body is None else json.dumps(res.body).encode()
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

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    if ssl_context is not None:
        server.socket = ssl_context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
