"""Hostile requests get a cheap, clear 4xx: never a 500, never a body read to disk first."""

from __future__ import annotations

import base64
import io

import pytest
from django.test import Client

from tests.factories import api_client as client_for
from tests.factories import make_bot

pytestmark = pytest.mark.django_db


def test_an_oversized_body_is_refused_with_413_before_it_is_read(settings):
    body = b"x" * (settings.MONSOON_REQUEST_MAX_BYTES + 1)
    response = Client().post(
        "/api/v1/auth/token/", data=body, content_type="application/octet-stream"
    )
    assert response.status_code == 413
    assert f"limit here is {settings.MONSOON_REQUEST_MAX_BYTES} bytes" in response.json()["detail"]


def test_a_declared_200_mb_multipart_body_is_refused_from_its_header():
    response = Client().generic(
        "POST",
        "/api/v1/auth/token/",
        b"--x--",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(200 * 1024 * 1024),
    )
    assert response.status_code == 413


def test_the_web_login_refuses_an_oversized_body_too(settings):
    response = Client().generic(
        "POST",
        "/login/",
        b"",
        CONTENT_LENGTH=str(10 * 1024 * 1024),
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 413


def test_a_bot_upload_may_be_as_large_as_the_upload_limit(settings, alice):
    bot = make_bot(alice, "big-upload")
    settings.MONSOON_UPLOAD_MAX_BYTES = settings.MONSOON_REQUEST_MAX_BYTES * 2
    artifact = io.BytesIO(b"x" * (settings.MONSOON_REQUEST_MAX_BYTES + 10))
    artifact.name = "bot.py"
    response = client_for(alice).post(
        f"/api/v1/bots/{bot.pk}/upload/", {"artifact": artifact}, format="multipart"
    )
    assert response.status_code != 413
    over = client_for(alice).generic(
        "POST",
        f"/api/v1/bots/{bot.pk}/upload/",
        "",
        CONTENT_LENGTH=str(settings.MONSOON_UPLOAD_MAX_BYTES + 1024 * 1024),
    )
    assert over.status_code == 413


def test_deeply_nested_json_is_a_400():
    body = "[" * 100_000 + "]" * 100_000
    response = Client().post("/api/v1/auth/token/", data=body, content_type="application/json")
    assert response.status_code == 400
    assert "nested too deeply" in response.json()["detail"]


def test_a_non_numeric_match_id_is_a_404():
    assert Client().get("/api/v1/matches/abc/log/").status_code == 404
    assert Client().get("/api/v1/matches/abc/").status_code == 404


def test_an_impossible_utc_offset_is_a_400_naming_the_filter():
    response = Client().get("/api/v1/matches/", {"since": "2020-05-25T19:00:51+18:36"})
    assert response.status_code == 400
    assert "since" in response.json()


def test_a_forged_cursor_is_a_404():
    cursor = base64.b64encode(b"p=abc").decode()
    response = Client().get("/api/v1/matches/", {"cursor": cursor})
    assert response.status_code == 404
    assert "cursor" in response.json()["detail"].lower()


def test_putting_a_bot_back_with_its_own_name_is_not_a_duplicate(alice):
    bot = make_bot(alice, "steady")
    response = client_for(alice).put(
        f"/api/v1/bots/{bot.pk}/", {"name": "steady", "description": "same name"}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["description"] == "same name"


@pytest.mark.parametrize("name", ["new", "NEW"])
def test_names_that_collide_with_site_urls_are_refused(alice, name):
    created = client_for(alice).post(
        "/api/v1/bots/", {"name": name, "game": "batavia"}, format="json"
    )
    assert created.status_code == 400 and "reserved" in created.json()["detail"]
    bot = make_bot(alice, "renamed")
    renamed = client_for(alice).patch(f"/api/v1/bots/{bot.pk}/", {"name": name}, format="json")
    assert renamed.status_code == 400 and "reserved" in renamed.json()["detail"]


@pytest.mark.parametrize(
    "path, field", [("/api/v1/matches/", "ranked"), ("/api/v1/bots/", "is_public")]
)
def test_an_invalid_boolean_filter_is_a_400_naming_the_field(path, field):
    response = Client().get(path, {field: "maybe"})
    assert response.status_code == 400
    assert field in response.json()
    assert Client().get(path, {field: "true"}).status_code == 200


def test_an_invalid_id_filter_is_a_400_naming_the_field():
    response = Client().get("/api/v1/matches/", {"bot": "abc"})
    assert response.status_code == 400 and "bot" in response.json()
