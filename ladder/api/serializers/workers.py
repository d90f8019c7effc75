"""Serializers of the worker fleet (``/api/v1/workers/``)."""

from __future__ import annotations

from rest_framework import serializers


class WorkerNodeSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="Celery's worker name (name@host)")
    hostname = serializers.CharField()
    pid = serializers.IntegerField()
    slots = serializers.IntegerField(help_text="matches it can play at once")
    queues = serializers.ListField(child=serializers.CharField())
    sandbox = serializers.CharField(help_text="bwrap, or none (bots unsandboxed)")
    sandbox_problem = serializers.CharField(help_text="why bots cannot be sandboxed there")
    storage_problem = serializers.CharField(
        help_text="why that host cannot read stored bot artifacts (its versions and matches fail)"
    )
    started_at = serializers.DateTimeField()
    last_seen = serializers.DateTimeField()
    stopped_at = serializers.DateTimeField(allow_null=True)
    alive = serializers.BooleanField(help_text="heard from within three heartbeats")
    running_matches = serializers.ListField(child=serializers.IntegerField())
