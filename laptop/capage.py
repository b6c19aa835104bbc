"""The plain-HTTP page where a phone fetches the laptop's certificate authority (before it
trusts it, the phone cannot open the HTTPS address without a warning)."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.utils import translation

from laptop.tls import Authority


def _language(header: str) -> str:
    for part in header.split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in ("de", "en"):
            return code
    return "de"


def make_server(*, port: int, authority: Authority, app_port: int) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        server_version = "mcs-ca"

        def log_message(self, *args) -> None:  # the terminal shows addresses, not every hit
            return

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            path = self.path.split("?")[0]
            if path == "/ca.crt":
                # DER with this type: Android and iOS offer to install it.
                self._send(200, authority.ca_der(), "application/x-x509-ca-cert",
                           disposition='attachment; filename="monopoly-championship-ca.crt"')
            elif path == "/ca.pem":
                self._send(200, authority.ca_cert.read_bytes(), "application/x-pem-file",
                           disposition='attachment; filename="monopoly-championship-ca.pem"')
            elif path == "/ca.css":  # the page's styles: the HTTPS site's are not trusted yet
                self._send(200, Path(finders.find("css/ca.css")).read_bytes(), "text/css; charset=utf-8")
            elif path == "/":
                host = (self.headers.get("Host") or "").rsplit(":", 1)[0] or "127.0.0.1"
                with translation.override(_language(self.headers.get("Accept-Language", ""))):
                    body = render_to_string("laptop/ca.html", {
                        "app_url": f"https://{host}:{app_port}/",
                        "fingerprint": authority.fingerprint(),
                        "LANGUAGE_CODE": translation.get_language(),
                    })
                self._send(200, body.encode(), "text/html; charset=utf-8")
            else:
                self._send(404, b"not found", "text/plain")

        def _send(self, status: int, body: bytes, kind: str, disposition: str = "") -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            if disposition:
                self.send_header("Content-Disposition", disposition)
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("0.0.0.0", port), Handler)  # noqa: S104 - the hall's LAN
    server.daemon_threads = True
    return server


def serve_in_background(server: ThreadingHTTPServer) -> threading.Thread:
    thread = threading.Thread(target=server.serve_forever, name="laptop-ca-page", daemon=True)
    thread.start()
    return thread
