"""Schemathesis over the live OpenAPI schema: every operation, anonymous and authenticated.

Every check schemathesis has runs on every generated request (server errors, responses that
the schema does not describe, status codes it does not list, content types, headers...), so
the schema and the API cannot drift apart: what ``/api/schema/`` promises is what the API
does, 4xx and 429 answers included.
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.cache import cache
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings

from ladder.accounts.services import create_user
from tests.factories import make_bot

pytestmark = pytest.mark.django_db


# Every check runs. One is tuned: "schema-valid request rejected" takes 400 as an acceptable
# answer too, because some refusals no schema can express (a wrong password, an id that does
# not exist, a bot that already sits at the table, a file type the upload does not take); each
# such 400 still has to match the documented error body.
CONFIG = schemathesis.config.SchemathesisConfig.from_dict(
    {
        "checks": {
            "positive_data_acceptance": {
                "expected-statuses": ["2xx", "3xx", "400", "401", "403", "404", "409", "429"]
            }
        },
    }
)
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application(), config=CONFIG)


@pytest.fixture
def token_header(db):
    from rest_framework.authtoken.models import Token

    alice = create_user("alice", password="alice-password-1")
    make_bot(alice, "pepper", "batavia")
    return {"Authorization": f"Token {Token.objects.get_or_create(user=alice)[0].key}"}


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    """The raw WSGI handler closes the database connection after each request (Django's test
    client switches that off); the test's transaction lives on that connection."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


FUZZ = settings(
    max_examples=12, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


@schema.parametrize()
@FUZZ
def test_anonymous_requests_never_break_the_schema(case):
    cache.clear()  # throttles must not turn the fuzz into a wall of 429s
    case.call_and_validate()


@schema.parametrize()
@FUZZ
def test_authenticated_requests_never_break_the_schema(case, token_header):
    cache.clear()
    case.call_and_validate(headers=token_header)
