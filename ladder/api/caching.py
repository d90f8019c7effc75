"""A few seconds of caching for the public, user-independent hot lists (standings, matches).

Those answers do not depend on who asks, and a ladder that changes every few seconds does not
need them recomputed for each of hundreds of requests a second.  JSON answers are cached rendered
(bytes), so a hit costs a cache read; other formats (the browsable API) are never cached.
"""

from __future__ import annotations

import hashlib
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse


def public_cache(view_method):
    @wraps(view_method)
    def wrapper(self, request, *args, **kwargs):
        seconds = settings.MONSOON_API_CACHE_SECONDS
        renderer = getattr(request, "accepted_renderer", None)
        if seconds <= 0 or request.method != "GET" or getattr(renderer, "format", "") != "json":
            return view_method(self, request, *args, **kwargs)
        key = "api-cache:" + hashlib.sha256(request.build_absolute_uri().encode()).hexdigest()
        hit = cache.get(key)
        if hit is not None:
            content, content_type = hit
            return HttpResponse(content, content_type=content_type)
        response = view_method(self, request, *args, **kwargs)
        if response.status_code == 200:
            response.accepted_renderer = renderer
            response.accepted_media_type = request.accepted_media_type
            response.renderer_context = self.get_renderer_context()
            response.render()
            cache.set(key, (response.content, response["Content-Type"]), seconds)
        return response

    return wrapper
