"""The query parameters a list documents, and the 400 for any other."""

from __future__ import annotations

from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.views import APIView


def list_parameters(view: APIView) -> set[str]:
    """What a list view takes: its filter set's filters, its paginator's parameters and DRF's
    format override, the same sources drf-spectacular documents the list from."""
    names = {api_settings.URL_FORMAT_OVERRIDE} if api_settings.URL_FORMAT_OVERRIDE else set()
    for backend_class in getattr(view, "filter_backends", ()):
        get_filterset_class = getattr(backend_class(), "get_filterset_class", None)
        if get_filterset_class is not None:
            queryset = view.get_queryset()  # type: ignore[attr-defined]  # lazy: no query
            filterset_class = get_filterset_class(view, queryset)
            if filterset_class is not None:
                names.update(filterset_class.base_filters)
    paginator = getattr(view, "paginator", None)
    if paginator is not None:
        names.update(p["name"] for p in paginator.get_schema_operation_parameters(view))
    return names


def refuse_unknown_parameters(request: Request, known: set[str]) -> None:
    unknown = sorted(set(request.query_params) - known)
    if unknown:
        takes = ", ".join(sorted(known)) or "no parameters"
        raise ValidationError(
            {name: [f"not a parameter of this list (it takes {takes})"] for name in unknown}
        )
