"""API views, one module per resource."""
