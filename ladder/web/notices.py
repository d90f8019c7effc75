"""Tell signed-in users, on their next page, what staff decided about their organiser request.

A decision is made in the admin, away from the user's session, so it is kept on the request row
(``notified_at`` empty) and turned into a one-time message here.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse

from ladder.accounts import selectors, services
from ladder.accounts.models import OrganiserRequest


class DecisionNoticeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and _is_page(request):
            decisions = list(selectors.unannounced_decisions(user))
            for req in decisions:
                if req.status == OrganiserRequest.Status.APPROVED:
                    messages.success(
                        request,
                        "Staff approved your request: you are an organiser now. Create a "
                        "tournament from the Tournaments page.",
                    )
                else:
                    messages.info(request, "Staff declined your request to become an organiser.")
            if decisions:
                services.mark_notified([req.pk for req in decisions])
        return self.get_response(request)


def _is_page(request: HttpRequest) -> bool:
    """A page a person reads (not the API, the admin, static files or a page's own polling)."""
    path = request.path
    if path.startswith(("/api/", "/admin/", "/static/")):
        return False
    if request.method != "GET" or request.headers.get("X-Requested-With") == "fetch":
        return False
    # Browsers ask for text/html when they load a page; a script's fetch asks for */* or JSON.
    return "text/html" in request.headers.get("Accept", "text/html")
