"""API serializers, one module per resource."""
