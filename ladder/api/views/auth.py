"""``/api/v1/auth/token/`` and ``/api/v1/me/``: tokens and the signed-in user."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from ladder.accounts.lockout import forget_the_pairs_failures
from ladder.accounts.selectors import is_organiser
from ladder.accounts.services import api_token, rotate_token
from ladder.api.parsers import SafeJSONParser
from ladder.api.serializers.auth import TokenSerializer
from ladder.api.views.common import DocumentedQueryOnly


class TokenView(ObtainAuthToken):
    """Your API token for your user name and password. After repeated failed logins for a user
    name from one address, or from one address over many names, further attempts from there
    are refused with 429 for a while."""

    # django-axes marks the request it is given as locked out, and DRF hands it its own wrapper:
    # the mark is copied onto Django's request so AxesMiddleware answers with the lockout page.

    parser_classes = [SafeJSONParser, FormParser, MultiPartParser]
    # Anyone may ask (the credentials are the body), and no session is read: the schema marks
    # it public, and a browser's login cookie without a CSRF token does not turn it into a 403.
    permission_classes = [permissions.AllowAny]
    authentication_classes: list[type[Any]] = []

    def post(self, request: Request, *args: object, **kwargs: object) -> Response:
        """The token, and the (address, name) pair's failed attempts forgotten, as a login on
        the site forgets them (a token is not a session: ``user_logged_in`` is not sent)."""
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        forget_the_pairs_failures(sender=type(self), request=request._request, user=user)
        return Response({"token": api_token(user)})

    def finalize_response(
        self, request: Request, response: Response, *args: object, **kwargs: object
    ) -> Response:
        for name in ("axes_locked_out", "axes_credentials"):
            if hasattr(request, name):
                setattr(request._request, name, getattr(request, name))
        return super().finalize_response(request, response, *args, **kwargs)


class MeView(DocumentedQueryOnly):
    """Who you are, your API token; POST rotates the token."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=TokenSerializer)
    def get(self, request: Request) -> Response:
        return Response(
            {
                "username": request.user.username,
                "token": api_token(request.user),
                "is_organiser": is_organiser(request.user),
            }
        )

    @extend_schema(request=None, responses=TokenSerializer)
    def post(self, request: Request) -> Response:
        return Response(
            {
                "username": request.user.username,
                "token": rotate_token(request.user),
                "is_organiser": is_organiser(request.user),
            }
        )
