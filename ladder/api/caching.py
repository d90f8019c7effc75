"""A few seconds of caching for the public, user-independent hot lists (standings, matches).

Those answers do not depend on who asks, and a ladder that changes every few seconds does not
need them recomputed for each of hundreds of requests a second.  JSON answers are cached rendered
(bytes), so a hit costs a cache read; other formats (the browsable API) are never cached.

Readers who may name a private bot (its owner, staff) read answers of their own: they neither
read nor fill the shared cache, so a private bot's name never reaches anybody else through it;
and an answer cached while a bot was still public is dropped when it is made private.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps
from typing import TypeVar, cast

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ladder.bots.selectors import names_private_bots, visibility_generation

ViewMethod = TypeVar("ViewMethod", bound=Callable[..., HttpResponse])


def public_cache(view_method: ViewMethod) -> ViewMethod:
    """Cache a view method's JSON answers for ``MONSOON_API_CACHE_SECONDS`` (GET only)."""

    @wraps(view_method)
    def wrapper(self: APIView, request: Request, *args: object, **kwargs: object) -> HttpResponse:
        seconds = settings.MONSOON_API_CACHE_SECONDS
        renderer = getattr(request, "accepted_renderer", None)
        if (
            seconds <= 0
            or request.method != "GET"
            or renderer is None
            or getattr(renderer, "format", "") != "json"
            or names_private_bots(request.user)
        ):
            return view_method(self, request, *args, **kwargs)
        # Making a bot private changes the generation: nothing cached before then is served.
        seen = f"{visibility_generation()}:{request.build_absolute_uri()}"
        key = "api-cache:" + hashlib.sha256(seen.encode()).hexdigest()
        hit = cache.get(key)
        if hit is not None:
            content, content_type = hit
            return HttpResponse(content, content_type=content_type)
        response = view_method(self, request, *args, **kwargs)
        if isinstance(response, Response) and response.status_code == 200:
            response.accepted_renderer = renderer
            response.accepted_media_type = request.accepted_media_type
            # What DRF's finalize_response sets on every response; its stubs omit the attribute.
            response.renderer_context = self.get_renderer_context()  # type: ignore[attr-defined]
            response.render()
            cache.set(key, (response.content, response["Content-Type"]), seconds)
        return response

    # A hit is a plain HttpResponse holding the rendered bytes, which DRF passes through as it
    # is: the view keeps its declared signature.
    return cast(ViewMethod, wrapper)
