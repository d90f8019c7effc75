from django.contrib import admin

from ladder.fleet.models import WorkerNode


@admin.register(WorkerNode)
class WorkerNodeAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "hostname",
        "slots",
        "sandbox",
        "storage_problem",
        "started_at",
        "last_seen",
        "stopped_at",
    )
    list_filter = ("hostname", "sandbox")
    readonly_fields = [f.name for f in WorkerNode._meta.fields]
