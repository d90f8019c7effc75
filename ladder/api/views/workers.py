"""``/api/v1/workers/``: the worker fleet, for staff."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from ladder.api.serializers.workers import WorkerNodeSerializer
from ladder.api.views.common import DocumentedQueryOnly, IsStaff
from ladder.fleet import selectors as fleet_selectors


class WorkersView(DocumentedQueryOnly):
    """The worker fleet (staff only): each worker's host, match slots, liveness and matches."""

    permission_classes = [IsStaff]

    @extend_schema(responses=WorkerNodeSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(WorkerNodeSerializer(fleet_selectors.fleet(), many=True).data)
