"""Compressed answers: brotli where the client takes it, else gzip, else the plain body.

The hall's Wi-Fi, not the server, limits a full hall of phones, so every public answer goes out
compressed. Shared answers (the cached public pages, fragments and API documents) are compressed
once when they change (``encode``) and the variants cached with the body; anything else is
compressed per response by ``CompressionMiddleware``.

ETags follow the encoding (``"abc"`` plain, ``"abc-br"``, ``"abc-gz"``, like Apache), so a proxy
never mixes representations up; ``etag_matches`` accepts any of them for a 304.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers

try:  # brotli is a dependency; without it (a stripped install) gzip still works
    import brotli
except ImportError:  # pragma: no cover
    brotli = None

MIN_SIZE = 400  # bytes: below this, compression costs more than it saves (headers dominate)
# Once per change, but a busy hall changes the version document many times a second: brotli
# 9 / gzip 9 for small bodies (~1 ms), 5 / 6 for large ones (a 400 kB list: 8 ms; quality 11
# would take 1.5 s for 25 % less). Per response (the middleware): the fast settings.
SMALL = 32 * 1024
GZIP_LEVEL, GZIP_LEVEL_LARGE, GZIP_LEVEL_PER_RESPONSE = 9, 6, 6
BROTLI_QUALITY, BROTLI_QUALITY_LARGE, BROTLI_QUALITY_PER_RESPONSE = 9, 5, 4
SUFFIX = {"br": "-br", "gzip": "-gz"}
COMPRESSIBLE = ("text/", "application/json", "application/javascript", "image/svg+xml",
                "application/xml", "application/vnd.oai.openapi")
_TOKEN = re.compile(r"\s*([a-z0-9*-]+)\s*(?:;\s*q\s*=\s*([0-9.]+))?", re.IGNORECASE)


@dataclass(frozen=True)
class Encoded:
    """A body with its ETag and its compressed variants (by content coding)."""

    body: bytes
    etag: str
    variants: dict[str, bytes] = field(default_factory=dict)


def compress(body: bytes, coding: str, *, fast: bool = False) -> bytes:
    large = len(body) > SMALL
    if coding == "br" and brotli is not None:
        quality = (BROTLI_QUALITY_PER_RESPONSE if fast
                   else BROTLI_QUALITY_LARGE if large else BROTLI_QUALITY)
        return brotli.compress(body, quality=quality)
    level = GZIP_LEVEL_PER_RESPONSE if fast else GZIP_LEVEL_LARGE if large else GZIP_LEVEL
    return gzip.compress(body, compresslevel=level, mtime=0)


def encode(body: bytes, etag: str) -> Encoded:
    """The body and its brotli and gzip variants, made once (a body too small stays plain)."""
    if len(body) < MIN_SIZE:
        return Encoded(body, etag)
    variants = {"gzip": compress(body, "gzip")}
    if brotli is not None:
        variants["br"] = compress(body, "br")
    return Encoded(body, etag, variants)


def accepted(accept_encoding: str) -> list[str]:
    """The codings the client takes, ours first: br, then gzip (q=0 excluded)."""
    taken = {}
    for part in (accept_encoding or "").split(","):
        match = _TOKEN.match(part)
        if not match or not match.group(1):
            continue
        try:
            q = float(match.group(2)) if match.group(2) is not None else 1.0
        except ValueError:
            q = 0.0
        taken[match.group(1).lower()] = q
    out = []
    for coding in ("br", "gzip"):
        q = taken.get(coding, taken.get("*", 0.0))
        if q > 0 and (coding != "br" or brotli is not None):
            out.append(coding)
    return out


def choose(request: HttpRequest, variants: dict[str, bytes] | None = None) -> str:
    """The coding to answer with: "br", "gzip" or "" (plain)."""
    for coding in accepted(request.headers.get("Accept-Encoding", "")):
        if variants is None or coding in variants:
            return coding
    return ""


def tagged(etag: str, coding: str) -> str:
    """The ETag of the representation in ``coding``."""
    if not coding or not etag.endswith('"'):
        return etag
    return etag[:-1] + SUFFIX[coding] + '"'


def etag_matches(request: HttpRequest, etag: str) -> bool:
    """``If-None-Match`` names this body's ETag in any coding (or ``*``)."""
    header = request.headers.get("If-None-Match", "")
    if not header:
        return False
    if header.strip() == "*":
        return True
    base = etag.strip('"')
    for tag in header.split(","):
        tag = tag.strip()
        if tag.startswith("W/"):
            tag = tag[2:]
        tag = tag.strip('"')
        if tag == base or any(tag == base + suffix for suffix in SUFFIX.values()):
            return True
    return False


def encoded_response(request: HttpRequest, encoded: Encoded, *, content_type: str,
                     status: int = 200) -> HttpResponse:
    """200 with the best variant the client takes, or 304 when it already has the body."""
    coding = choose(request, encoded.variants)
    if etag_matches(request, encoded.etag):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(encoded.variants[coding] if coding else encoded.body,
                                content_type=content_type, status=status)
        if coding:
            response["Content-Encoding"] = coding
    response["ETag"] = tagged(encoded.etag, coding)
    if encoded.variants:
        patch_vary_headers(response, ("Accept-Encoding",))
    return response


class CompressionMiddleware:
    """Compresses what no view compressed itself (staff pages, errors, the schema): text
    bodies above ``MIN_SIZE``, never a stream (PDFs, files), an encoded answer, or one with
    its own ETag (its view compares ``If-None-Match`` itself, e.g. the console's state)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (response.streaming or response.has_header("Content-Encoding")
                or response.has_header("ETag")
                or response.status_code < 200 or response.status_code in (204, 304)
                or len(response.content) < MIN_SIZE
                or not response.get("Content-Type", "").startswith(COMPRESSIBLE)):
            return response
        patch_vary_headers(response, ("Accept-Encoding",))
        coding = choose(request)
        if not coding:
            return response
        body = compress(response.content, coding, fast=True)
        if len(body) >= len(response.content):
            return response
        response.content = body
        response["Content-Length"] = str(len(body))
        response["Content-Encoding"] = coding
        return response


#: What a 304 carries: the headers that update the stored answer (RFC 9110 §15.4.5) and the
#: server's clock the live pages read from every answer. Everything else (the security
#: headers, the content's) belongs to the stored 200 the browser keeps using.
NOT_MODIFIED_HEADERS = frozenset(
    {"etag", "cache-control", "vary", "date", "expires", "content-location", "x-server-time"}
)


class NotModifiedMiddleware:
    """Outermost: a 304 goes out with the few headers a 304 needs. A hall of phones polls
    the version document every 1.5 s and most answers are 304s: their security headers
    alone (the policy is 260 bytes) were most of a 304's 565 bytes."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code == 304:
            for name in [name for name in response.headers
                         if name.lower() not in NOT_MODIFIED_HEADERS]:
                del response.headers[name]
        return response
