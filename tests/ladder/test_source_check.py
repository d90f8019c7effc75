"""The upload syntax check is bounded by the compiling child's CPU time, never by the host's load.

A 0.75 s wall-clock limit (interpreter start included) refused 8 of 10 parallel uploads of a
valid 837-byte bot on a busy host. Now only the child's CPU time refuses an upload; a child the
host did not let finish is the host's fault: 503 with Retry-After, nothing stored or refused.
"""

from __future__ import annotations

import io
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from ladder.bots import source_check
from ladder.bots.artifacts import UploadLimits, UploadRejected, inspect_upload
from ladder.bots.models import BotVersion
from tests.factories import api_client as client_for
from tests.factories import make_bot, zip_bytes
from tests.ladder.uploads import LIMITS, stored_files

SMALL_BOT = b'''"""A small valid bot: answers every request with its first legal action."""

import json
import sys


def answer(message):
    """The reply to one message of the protocol, or None for the end of the match."""
    if message["type"] == "start":
        return {"ready": True}
    if message["type"] == "request":
        legal = message["legal_actions"]
        return {"action": legal[0], "debug": f"{len(legal)} choices"}
    return None


def main():
    for line in sys.stdin:
        reply = answer(json.loads(line))
        if reply is None:
            break
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
'''


@pytest.mark.usefixtures("two_cpu_hogs")
def test_ten_parallel_uploads_of_a_small_valid_bot_are_all_accepted_on_a_busy_host():
    def check(index: int) -> str:
        data = zip_bytes({"main.py": SMALL_BOT, "lib/util.py": f"N = {index}\n".encode()})
        return inspect_upload("bot.zip", data, LIMITS).kind

    with ThreadPoolExecutor(max_workers=10) as pool:
        kinds = list(pool.map(check, range(10)))
    assert kinds == ["zip"] * 10


@pytest.mark.usefixtures("two_cpu_hogs")
def test_a_source_that_needs_seconds_of_cpu_to_compile_is_refused_with_that_reason():
    # An f-string of 120,000 fields: about 350 KB, whose compile takes CPython several seconds
    # of CPU (the cost grows with the square of the fields). The child's CPU limit stops it.
    source = b"x = f'" + b"{a}" * 120_000 + b"'\n"
    expected = f"take more than {source_check.CHILD_CPU_SECONDS} s of CPU time to compile"
    with pytest.raises(UploadRejected, match=expected):
        inspect_upload("bot.py", source, UploadLimits())  # the documented size limits


def timed_out(*args, **kwargs):
    """``subprocess.run`` as on a host too busy to finish the check in time."""
    raise subprocess.TimeoutExpired(args[0], kwargs.get("timeout", 0))


def test_a_check_the_busy_host_did_not_finish_is_a_503_and_stores_nothing(
    alice, settings, monkeypatch
):
    monkeypatch.setattr(source_check.subprocess, "run", timed_out)
    bot = make_bot(alice, "mace")
    upload = io.BytesIO(SMALL_BOT)
    upload.name = "main.py"
    response = client_for(alice).post(
        f"/api/v1/bots/{bot.pk}/upload/", {"artifact": upload}, format="multipart"
    )
    assert response.status_code == 503, response.content
    assert response["Retry-After"] == str(source_check.RETRY_AFTER_SECONDS)
    body = response.json()
    assert body["code"] == "unavailable" and "busy" in body["detail"]
    assert "refused" not in body["detail"].replace("nothing was stored or refused", "")
    assert BotVersion.objects.count() == 0
    assert stored_files(settings) == []


def test_the_site_form_says_to_try_again_when_the_check_could_not_run(alice, monkeypatch):
    monkeypatch.setattr(source_check.subprocess, "run", timed_out)
    bot = make_bot(alice, "clove")
    client = Client()
    client.force_login(alice)
    page = client.post(
        reverse("web:bot", args=[bot.name]),
        {"artifact": SimpleUploadedFile("main.py", SMALL_BOT, content_type="text/x-python")},
    )
    assert page.status_code == 503
    assert page["Retry-After"] == str(source_check.RETRY_AFTER_SECONDS)
    html = page.content.decode()
    assert "could not be checked now" in html and "The upload was refused" not in html
    assert BotVersion.objects.count() == 0
