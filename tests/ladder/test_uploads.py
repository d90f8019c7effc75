"""The malicious upload set: every bad upload gets a clear 4xx and nothing is stored."""

from __future__ import annotations

import io
import json
import os
import stat
import tarfile
import zipfile

import pytest

from ladder.bots.artifacts import UploadLimits, UploadRejected, inspect_upload
from ladder.bots.models import BotVersion
from tests.ladder.conftest import GOOD_BOT, client_for, make_bot, zip_bytes

LIMITS = UploadLimits(max_bytes=64 * 1024, max_files=10, max_unpacked_bytes=256 * 1024)


def tar_gz(members: list[tarfile.TarInfo], contents: dict[str, bytes] | None = None) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for info in members:
            data = (contents or {}).get(info.name)
            archive.addfile(info, io.BytesIO(data) if data is not None else None)
    return buffer.getvalue()


def regular(name: str, data: bytes) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    return info, data


def zip_with_mode(name: str, mode: int, data: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("main.py", GOOD_BOT)
        info = zipfile.ZipInfo(name)
        info.external_attr = mode << 16
        archive.writestr(info, data)
    return buffer.getvalue()


def zip_bomb() -> bytes:
    # 100 MB of zeros compresses to about 100 KB; a second layer would shrink it further, but the
    # point is the inflated size, which must be refused without inflating it all.
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("main.py", GOOD_BOT)
        archive.writestr("zeros.bin", b"\0" * (20 * 1024 * 1024))
    return buffer.getvalue()


def lying_zip() -> bytes:
    """A member whose header claims 10 bytes but inflates to 1 MB."""
    data = bytearray(zip_bytes({"main.py": GOOD_BOT, "data.txt": b"a" * (1024 * 1024)}))
    # Patch the uncompressed size in both the local header and the central directory.
    big = (1024 * 1024).to_bytes(4, "little")
    small = (10).to_bytes(4, "little")
    start = data.find(b"data.txt") - 30
    assert data[start + 22:start + 26] == big
    data[start + 22:start + 26] = small
    central = data.find(b"PK\x01\x02")  # the central directory, entry by entry
    while data[central + 46:central + 54] != b"data.txt":
        central = data.find(b"PK\x01\x02", central + 4)
    data[central + 24:central + 28] = small
    return bytes(data)


def gzip_bomb() -> bytes:
    info, payload = regular("main.py", GOOD_BOT)
    zeros = tarfile.TarInfo("zeros.bin")
    zeros.size = 20 * 1024 * 1024
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        archive.addfile(info, io.BytesIO(payload))
        archive.addfile(zeros, io.BytesIO(b"\0" * zeros.size))
    return buffer.getvalue()


def symlink_tar() -> bytes:
    info, payload = regular("main.py", GOOD_BOT)
    link = tarfile.TarInfo("secrets")
    link.type = tarfile.SYMTYPE
    link.linkname = "/etc/passwd"
    return tar_gz([info, link], {"main.py": payload})


def hardlink_tar() -> bytes:
    info, payload = regular("main.py", GOOD_BOT)
    link = tarfile.TarInfo("copy.py")
    link.type = tarfile.LNKTYPE
    link.linkname = "main.py"
    return tar_gz([info, link], {"main.py": payload})


def device_tar() -> bytes:
    info, payload = regular("main.py", GOOD_BOT)
    device = tarfile.TarInfo("null")
    device.type = tarfile.CHRTYPE
    device.devmajor, device.devminor = 1, 3
    return tar_gz([info, device], {"main.py": payload})


def traversal_tar() -> bytes:
    info, payload = regular("main.py", GOOD_BOT)
    evil, evil_payload = regular("../../evil.py", b"print('x')\n")
    return tar_gz([info, evil], {"main.py": payload, "../../evil.py": evil_payload})


def absolute_tar() -> bytes:
    info, payload = regular("/etc/cron.d/evil", b"* * * * * root true\n")
    main, main_payload = regular("main.py", GOOD_BOT)
    return tar_gz([main, info], {"main.py": main_payload, "/etc/cron.d/evil": payload})


MALICIOUS = {
    "empty": ("main.py", b"", "empty"),
    "blank python": ("main.py", b"   \n\n", "empty"),
    "not utf-8": ("main.py", b"print('caf\xe9')\n", "UTF-8"),
    "syntax error": ("main.py", b"def (:\n", "syntax error"),
    "oversized": ("main.py", b"#" * (LIMITS.max_bytes + 1), "limit"),
    "wrong type": ("bot.exe", b"MZ\x90\x00", "unsupported file type"),
    "not a zip": ("bot.zip", b"PK but not really", "not a readable zip"),
    "zip bomb": ("bot.zip", zip_bomb(), "unpacks to more than"),
    "zip lying about size": ("bot.zip", lying_zip(), "member 'data.txt'"),
    "zip traversal": ("bot.zip", zip_bytes({"main.py": GOOD_BOT, "../evil.py": b"x=1\n"}), ".."),
    "zip absolute path": ("bot.zip", zip_bytes({"main.py": GOOD_BOT, "/tmp/evil.py": b"x=1\n"}),
                          "absolute"),
    "zip symlink": ("bot.zip", zip_with_mode("link", stat.S_IFLNK | 0o777, b"/etc/passwd"),
                    "symbolic link"),
    "zip device": ("bot.zip", zip_with_mode("dev", stat.S_IFCHR | 0o666, b""),
                   "not a regular file"),
    "zip too many files": ("bot.zip", zip_bytes({"main.py": GOOD_BOT,
                                                 **{f"f{i}.txt": b"x" for i in range(20)}}),
                           "more than 10 files"),
    "zip without entry point": ("bot.zip", zip_bytes({"bot.py": GOOD_BOT}), "main.py"),
    "zip bad manifest": ("bot.zip", zip_bytes({"monsoon.json": b"{not json"}), "monsoon.json"),
    "manifest names missing file": (
        "bot.zip", zip_bytes({"monsoon.json": json.dumps({"command": ["python3", "x.py"]}).encode(),
                              "main.py": GOOD_BOT}), "not in the archive"),
    "tar gzip bomb": ("bot.tar.gz", gzip_bomb(), "unpacks to more than"),
    "tar symlink": ("bot.tar.gz", symlink_tar(), "link"),
    "tar hard link": ("bot.tar.gz", hardlink_tar(), "link"),
    "tar device": ("bot.tar.gz", device_tar(), "not a regular file"),
    "tar traversal": ("bot.tar.gz", traversal_tar(), ".."),
    "tar absolute path": ("bot.tar.gz", absolute_tar(), "absolute"),
    "truncated tar.gz": ("bot.tar.gz", symlink_tar()[:40], "tar.gz"),
}


@pytest.mark.parametrize("case", MALICIOUS, ids=list(MALICIOUS))
def test_malicious_upload_is_rejected_with_a_reason(case):
    filename, data, reason = MALICIOUS[case]
    with pytest.raises(UploadRejected, match=reason):
        inspect_upload(filename, data, LIMITS)


def test_good_archives_are_accepted():
    manifest = {"command": ["python3", "bot/run.py"], "game": "batavia"}
    info = inspect_upload("bot.zip", zip_bytes({
        "monsoon.json": json.dumps(manifest).encode(), "bot/run.py": GOOD_BOT,
        "bot/helpers.py": b"X = 1\n"}), LIMITS)
    assert info.command == ["python3", "bot/run.py"]
    assert info.declared_game == "batavia"
    assert info.file_count == 3
    main, payload = regular("main.py", GOOD_BOT)
    folder = tarfile.TarInfo("data")
    folder.type = tarfile.DIRTYPE
    info = inspect_upload("bot.tar.gz", tar_gz([folder, main], {"main.py": payload}), LIMITS)
    assert (info.kind, info.command, info.file_count) == ("tar.gz", ["python3", "main.py"], 1)
    assert inspect_upload("anything.py", GOOD_BOT, LIMITS).kind == "py"


@pytest.fixture
def small_limits(settings):
    settings.MONSOON_UPLOAD_MAX_BYTES = LIMITS.max_bytes
    settings.MONSOON_UPLOAD_MAX_FILES = LIMITS.max_files
    settings.MONSOON_UPLOAD_MAX_UNPACKED_BYTES = LIMITS.max_unpacked_bytes


def stored_files(settings) -> list[str]:
    root = settings.MEDIA_ROOT
    return [os.path.join(d, f) for d, _, files in os.walk(root) for f in files]


@pytest.mark.parametrize("case", MALICIOUS, ids=list(MALICIOUS))
def test_api_refuses_malicious_upload_and_stores_nothing(case, alice, small_limits, settings):
    filename, data, reason = MALICIOUS[case]
    bot = make_bot(alice, "pepper")
    upload = io.BytesIO(data)
    upload.name = filename
    response = client_for(alice).post(f"/api/v1/bots/{bot.pk}/upload/", {"artifact": upload},
                                      format="multipart")
    assert response.status_code == 400, response.content
    # DRF itself refuses an empty file field before the service sees it; either way the
    # reason is in the answer.
    assert reason.lower() in json.dumps(response.json()).lower()
    assert BotVersion.objects.count() == 0
    assert stored_files(settings) == []


def test_manifest_for_another_game_is_refused(alice, small_limits, settings):
    bot = make_bot(alice, "nutmeg")
    upload = io.BytesIO(zip_bytes({
        "monsoon.json": json.dumps({"command": "python3 main.py", "game": "borneo"}).encode(),
        "main.py": GOOD_BOT}))
    upload.name = "bot.zip"
    response = client_for(alice).post(f"/api/v1/bots/{bot.pk}/upload/", {"artifact": upload},
                                      format="multipart")
    assert response.status_code == 400
    assert "borneo" in response.json()["detail"]
    assert BotVersion.objects.count() == 0
    assert stored_files(settings) == []


def test_bot_for_unknown_game_is_refused(alice):
    response = client_for(alice).post("/api/v1/bots/", {"name": "mace", "game": "monopoly"})
    assert response.status_code == 400
    assert "unknown game 'monopoly'" in response.json()["detail"]
