"""Refuse oversized request bodies (413) before Django reads a byte of them.

Django's own ``DATA_UPLOAD_MAX_MEMORY_SIZE`` only bounds the non-file part of a form: a multipart
body full of "files" is streamed to disk first and refused afterwards. This middleware checks the
declared ``Content-Length`` instead, so an anonymous 200 MB POST costs a header read. Bodies sent
without a length (chunked) are refused too: the WSGI servers we deploy behind (gunicorn behind
nginx) always provide one for a normal client.

Bot uploads get a larger allowance sized from the upload limit (``MONSOON_UPLOAD_MAX_BYTES``)
plus room for the multipart envelope; every other request gets ``MONSOON_REQUEST_MAX_BYTES``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

# Paths that accept a bot artifact: the API upload and the web bot page's upload form.
UPLOAD_PATHS = (
    re.compile(r"^/api/v1/bots/\d+/upload/$"),
    re.compile(r"^/bots/[^/]+/$"),
)
# Multipart boundaries, headers and the other form fields around the artifact.
MULTIPART_OVERHEAD_BYTES = 64 * 1024


def body_limit(path: str) -> int:
    """The largest body accepted for a request to ``path``, in bytes."""
    if any(pattern.match(path) for pattern in UPLOAD_PATHS):
        return settings.MONSOON_UPLOAD_MAX_BYTES + MULTIPART_OVERHEAD_BYTES
    return settings.MONSOON_REQUEST_MAX_BYTES


def _too_large(request: HttpRequest, detail: str) -> HttpResponse:
    if request.path.startswith("/api/"):
        return HttpResponse(
            json.dumps({"detail": detail, "code": "too_large"}),
            status=413,
            content_type="application/json",
        )
    return HttpResponse(detail, status=413, content_type="text/plain; charset=utf-8")


class BodySizeLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = body_limit(request.path)
        raw = request.META.get("CONTENT_LENGTH") or ""
        if raw:
            try:
                length = int(raw)
            except ValueError:
                return HttpResponse(
                    "invalid Content-Length", status=400, content_type="text/plain; charset=utf-8"
                )
            if length > limit:
                return _too_large(
                    request, f"the request body is {length} bytes; the limit here is {limit} bytes"
                )
        elif "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower():
            return _too_large(request, "request bodies must declare their Content-Length")
        return self.get_response(request)
