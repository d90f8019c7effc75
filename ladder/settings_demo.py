"""Settings of ``make demo`` (``scripts/demo.py``): the development defaults, shown like a site.

The demo runs on one machine with ``DEBUG=1`` in its environment so that ``ladder.settings``
accepts SQLite, the filesystem broker, the development secret and plain-HTTP cookies. Django's
own ``DEBUG`` is then switched off here: a visitor who mistypes a URL sees the site's 404 page,
not the debug page that lists every URL pattern, and an error shows the site's 500 page, not a
traceback. Static files are still served by WhiteNoise straight from the apps' folders, so the
demo needs no ``collectstatic``.
"""

from __future__ import annotations

from ladder.settings import *  # noqa: F403 (these settings are the project's, with three changes)
from ladder.settings import STORAGES

DEBUG = False
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
