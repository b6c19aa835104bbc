"""A tiny HTTP client (stdlib only): one cookie jar per simulated person, CSRF header, JSON."""

from __future__ import annotations

import http.cookiejar
import json
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass
from typing import Any


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    seconds: float

    def json(self) -> Any:
        return json.loads(self.body.decode() or "null")

    @property
    def text(self) -> str:
        return self.body.decode(errors="replace")


class Client:
    def __init__(self, base: str, *, timeout: float = 30.0, context=None) -> None:
        self.base = base.rstrip("/")
        self.jar = http.cookiejar.CookieJar()
        handlers = [urllib.request.HTTPCookieProcessor(self.jar)]
        if context is not None:  # an ssl.SSLContext trusting a private authority
            handlers.append(urllib.request.HTTPSHandler(context=context))
        self.opener = urllib.request.build_opener(*handlers)
        self.timeout = timeout

    def cookie(self, name: str) -> str | None:
        for cookie in self.jar:
            if cookie.name == name:
                return cookie.value
        return None

    def request(
        self,
        method: str,
        path: str,
        *,
        json_body: Any = None,
        form: dict[str, str] | None = None,
        data: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        url = path if path.startswith("http") else self.base + path
        head = {"Accept": "application/json, text/html;q=0.9", "Referer": self.base + "/"}
        if json_body is not None:
            data = json.dumps(json_body).encode()
            head["Content-Type"] = "application/json"
        elif form is not None:
            data = urllib.parse.urlencode(form).encode()
            head["Content-Type"] = "application/x-www-form-urlencoded"
        if method not in ("GET", "HEAD"):
            token = self.cookie("csrftoken")
            if token:
                head["X-CSRFToken"] = token
        head.update(headers or {})
        req = urllib.request.Request(url, data=data, method=method, headers=head)
        started = time.perf_counter()
        try:
            with self.opener.open(req, timeout=self.timeout) as resp:
                body = resp.read()
                return Answer(resp.status, dict(resp.headers), body, time.perf_counter() - started)
        except urllib.error.HTTPError as error:
            body = error.read() if error.fp else b""
            return Answer(error.code, dict(error.headers or {}), body, time.perf_counter() - started)
        except (urllib.error.URLError, OSError) as error:  # connection refused/reset, timeout
            return Answer(0, {}, str(error).encode(), time.perf_counter() - started)

    def get(self, path: str, **kw) -> Answer:
        return self.request("GET", path, **kw)

    def post(self, path: str, body: Any = None, **kw) -> Answer:
        if body is not None:
            kw["json_body"] = body
        return self.request("POST", path, **kw)

    def login(self, username: str, password: str) -> None:
        self.get("/login/")
        answer = self.request(
            "POST", "/login/",
            form={"username": username, "password": password,
                  "csrfmiddlewaretoken": self.cookie("csrftoken") or ""},
        )
        if answer.status >= 400 or self.cookie("sessionid") is None:
            raise RuntimeError(f"login as {username} failed: {answer.status} {answer.text[:200]}")

    def upload(self, path: str, field: str, filename: str, content: bytes) -> Answer:
        boundary = uuid.uuid4().hex
        body = (
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; "
            f"filename=\"{filename}\"\r\nContent-Type: text/csv\r\n\r\n"
        ).encode() + content + f"\r\n--{boundary}--\r\n".encode()
        return self.request(
            "POST", path, data=body,
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
        )
