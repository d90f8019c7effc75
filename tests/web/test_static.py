"""Static files as deployed: collectstatic with hashed names, served by WhiteNoise."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.test import Client


@pytest.mark.django_db
def test_collected_static_files_are_hashed_and_served(settings, tmp_path):
    settings.STATIC_ROOT = tmp_path / "static"
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    settings.WHITENOISE_USE_FINDERS = False
    call_command("collectstatic", "--noinput", verbosity=0)
    page = Client().get("/")
    css = re.search(r'href="(/static/web/site\.[0-9a-f]{12}\.css)"', page.content.decode())
    assert css, "the page links the hashed stylesheet"
    served = Client().get(css.group(1), HTTP_ACCEPT_ENCODING="gzip")
    assert served.status_code == 200
    assert served["Content-Encoding"] == "gzip"
    assert "immutable" in served["Cache-Control"] or "max-age" in served["Cache-Control"]
