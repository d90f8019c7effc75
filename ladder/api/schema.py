"""The OpenAPI schema lists every answer an operation can give, errors included.

drf-spectacular documents the success response a view declares. A client (and schemathesis,
which the test suite runs over the live schema) also needs the refusals: a bad filter or body
(400), a missing or wrong token (401), an action the user may not take (403), an unknown id, page
or cursor (404), a body over the request limit (413) and a throttle or login lockout (429). They
all share one body, ``{"detail": "...", "code": "..."}``, except validation errors, which name
the fields at fault.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ComponentRegistry, ResolvedComponent

ERROR = ResolvedComponent(
    name="Error",
    type=ResolvedComponent.SCHEMA,
    object="Error",
    schema={
        "type": "object",
        "description": "A refusal: `detail` says why; validation errors name each field at "
        "fault instead, with a list of messages.",
        "properties": {
            "detail": {"type": "string"},
            "code": {"type": "string"},
        },
        "additionalProperties": True,
    },
)

DESCRIPTIONS = {
    "400": "A parameter or the body is invalid; the answer names what is wrong.",
    "401": "No valid credentials where they are needed (or a wrong token was sent).",
    "403": "The user may not do this.",
    "404": "No such object, page or cursor (private objects of others look missing too).",
    "413": "The request body is over the limit (the bot-upload limit for uploads).",
    "429": "Too many requests: throttled or locked out; `Retry-After` says for how long.",
}
DIGITS = {"type": "string", "pattern": "^[0-9]+$"}
MAX_ID = 2**31 - 1
LOCKOUT_PATHS = ("/auth/token/",)  # credential endpoints: failed logins lock out (django-axes)


class MonsoonAutoSchema(AutoSchema):
    def get_operation(
        self,
        path: str,
        path_regex: str,
        path_prefix: str,
        method: str,
        registry: ComponentRegistry,
    ) -> dict[str, Any] | None:
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        if {} in operation.get("security", []):
            # Anyone may call it: credentials only change what is visible (your private bots).
            # OpenAPI's optional-auth form (a list with ``{}``) reads as "needs a token" to
            # generated clients (openapi-python-client asked for an AuthenticatedClient), so
            # public operations carry no requirement at all.
            del operation["security"]
        for parameter in operation.get("parameters", []):
            if parameter["in"] == "path" and parameter["schema"] == DIGITS:
                # An id in the URL (the routers' ``[0-9]+``): an integer to a client, so a
                # generated one takes ``id: int`` rather than a string of digits.
                parameter["schema"] = {"type": "integer", "minimum": 0, "maximum": MAX_ID}
        self.registry.register_on_missing(ERROR)
        responses = operation.setdefault("responses", {})
        for status in self._error_statuses(operation):
            responses.setdefault(
                status,
                {
                    "description": DESCRIPTIONS[status],
                    "content": {"application/json": {"schema": ERROR.ref}},
                },
            )
        return operation

    def get_filter_backends(self) -> list[Any]:
        """A list's filters are the list's alone (see ``ListFiltersOnly``): an action on one
        object that answers an array takes none of them."""
        if getattr(self.view, "detail", False):
            return []
        return list(super().get_filter_backends())

    def _error_statuses(self, operation: dict[str, Any]) -> list[str]:
        statuses = ["401", "403"]
        has_body = "requestBody" in operation
        if operation.get("parameters") or has_body or self.method != "GET":
            statuses.append("400")
        if "{" in self.path or operation.get("parameters") or self.method != "GET":
            statuses.append("404")
        if has_body or self.method in ("POST", "PUT", "PATCH"):
            statuses.append("413")
        if self._throttled() or self.path.endswith(LOCKOUT_PATHS):
            statuses.append("429")
        return sorted(statuses)

    def _throttled(self) -> bool:
        try:
            return bool(self.view.get_throttles())
        except Exception:  # a view that builds throttles from request data: assume it may throttle
            return True
