"""The malicious upload set: every bad upload gets a clear 4xx and nothing is stored."""

from __future__ import annotations

import hashlib
import io
import json
import stat
import subprocess
import tarfile
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from ladder.bots.artifacts import (
    UploadLimits,
    UploadRejected,
    artifact_members,
    inspect_upload,
    manifest_command,
)
from ladder.bots.models import BotVersion
from ladder.bots.services import read_upload
from ladder.core.errors import ServiceError
from tests.factories import GOOD_BOT, make_bot, zip_bytes
from tests.factories import api_client as client_for
from tests.ladder.uploads import LIMITS, stored_files


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


def zip_with_nul_in_a_name() -> bytes:
    """``main.py`` and ``evil\0.py``: zipfile cuts a name at a NUL, so it reads ``evil``."""
    raw = zip_bytes({"main.py": GOOD_BOT, "evilX.py": b"x = 1\n"})
    return raw.replace(b"evilX.py", b"evil\x00.py")


def tar_of(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT) as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
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
    assert data[start + 22 : start + 26] == big
    data[start + 22 : start + 26] = small
    central = data.find(b"PK\x01\x02")  # the central directory, entry by entry
    while data[central + 46 : central + 54] != b"data.txt":
        central = data.find(b"PK\x01\x02", central + 4)
    data[central + 24 : central + 28] = small
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


def non_utf8_tar() -> bytes:
    """A member named with the byte 0xff, holding Python that does not compile."""
    buffer = io.BytesIO()
    with tarfile.open(
        fileobj=buffer,
        mode="w:gz",
        format=tarfile.GNU_FORMAT,
        encoding="utf-8",
        errors="surrogateescape",
    ) as archive:
        for name, data in (("main.py", GOOD_BOT), ("\udcff.py", b"def (:\n")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def manifest_zip(command: list[str]) -> bytes:
    return zip_bytes(
        {"monsoon.json": json.dumps({"command": command}).encode(), "main.py": GOOD_BOT}
    )


# Archives a worker's file system could never unpack: each failed on every try.
DEEP = "/".join(["d"] * 1000) + "/f.txt"
UNPACKABLE = {
    "300-character name": (
        "bot.zip",
        zip_bytes({"main.py": GOOD_BOT, "a" * 300: b"x"}),
        "longer than 255 bytes",
    ),
    "file then folder of that name": (
        "bot.zip",
        zip_bytes({"main.py": GOOD_BOT, "a": b"x", "a/b.txt": b"y"}),
        "which is a file",
    ),
    "folder then file of that name": (
        "bot.zip",
        zip_bytes({"main.py": GOOD_BOT, "a/b.txt": b"y", "a": b"x"}),
        "both a file and a folder",
    ),
    "1,000-level-deep tree": (
        "bot.zip",
        zip_bytes({"main.py": GOOD_BOT, DEEP: b"x"}),
        "1001 levels deep",
    ),
    "tar 1,000-level-deep tree": (
        "bot.tar.gz",
        tar_gz([regular(DEEP, b"x")[0]], {DEEP: b"x"}),
        "levels deep",
    ),
    "non-UTF-8 member name": ("bot.tar.gz", non_utf8_tar(), "not UTF-8"),
    "NUL in the manifest command": (
        "bot.zip",
        manifest_zip(["python3", "main.py\u0000x"]),
        "NUL byte",
    ),
    "escape in the manifest command": (
        "bot.zip",
        manifest_zip(["python3", "main.py\u001b[2J"]),
        "contains the control character",
    ),
    "C1 CSI in the manifest command": (
        "bot.zip",
        manifest_zip(["python3", "main.py\u009b2J"]),
        "contains the control character",
    ),
    "right-to-left override in the manifest command": (
        "bot.zip",
        manifest_zip(["python3", "main\u202eyp.py"]),
        "contains the control character",
    ),
    "bidi isolate in the manifest command": (
        "bot.zip",
        manifest_zip(["python3", "\u2066main.py"]),
        "contains the control character",
    ),
    "right-to-left override in a member name": (
        "bot.zip",
        zip_bytes({"main.py": GOOD_BOT, "notes\u202etxt.py": b"x = 1\n"}),
        "has a control or format character",
    ),
    "zero-width space in a member name": (
        "bot.zip",
        zip_bytes({"main.py": GOOD_BOT, "main\u200b.py": b"x = 1\n"}),
        "200B ZERO WIDTH SPACE",
    ),
    "NFD and NFC spellings of one name": (
        "bot.zip",
        zip_bytes({"main.py": GOOD_BOT, "caf\u00e9.py": b"x = 1\n", "cafe\u0301.py": b"x = 2\n"}),
        "are one name once normalised",
    ),
    "NFD and NFC spellings of one folder in a tar": (
        "bot.tar.gz",
        tar_of({"main.py": GOOD_BOT, "caf\u00e9/a.py": b"x = 1\n", "cafe\u0301/b.py": b"x=2\n"}),
        "are one name once normalised",
    ),
    "NUL inside a zip member name": (
        "bot.zip",
        zip_with_nul_in_a_name(),
        "has a NUL byte in its name",
    ),
    "too many command arguments": (
        "bot.zip",
        manifest_zip(["python3", "main.py"] + ["-v"] * 40),
        "the limit is 32",
    ),
}

MALICIOUS = {
    **UNPACKABLE,
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
    "zip absolute path": (
        "bot.zip",
        zip_bytes({"main.py": GOOD_BOT, "/tmp/evil.py": b"x=1\n"}),
        "absolute",
    ),
    "zip symlink": (
        "bot.zip",
        zip_with_mode("link", stat.S_IFLNK | 0o777, b"/etc/passwd"),
        "symbolic link",
    ),
    "zip device": (
        "bot.zip",
        zip_with_mode("dev", stat.S_IFCHR | 0o666, b""),
        "not a regular file",
    ),
    "zip too many files": (
        "bot.zip",
        zip_bytes({"main.py": GOOD_BOT, **{f"f{i}.txt": b"x" for i in range(20)}}),
        "more than 10 files",
    ),
    "zip without entry point": ("bot.zip", zip_bytes({"bot.py": GOOD_BOT}), "main.py"),
    "zip bad manifest": ("bot.zip", zip_bytes({"monsoon.json": b"{not json"}), "monsoon.json"),
    # Python refuses to read an integer of more than 4,300 digits (a ValueError, not a
    # JSONDecodeError): still a manifest that is not valid JSON, not a server error.
    "zip manifest with a 100,000-digit number": (
        "bot.zip",
        zip_bytes(
            {
                "monsoon.json": b'{"command": ["python3", "main.py"], "x": 1'
                + b"0" * 100_000
                + b"}",
                "main.py": GOOD_BOT,
            }
        ),
        "monsoon.json is not valid UTF-8 JSON: Exceeds the limit",
    ),
    "manifest names missing file": (
        "bot.zip",
        zip_bytes(
            {
                "monsoon.json": json.dumps({"command": ["python3", "x.py"]}).encode(),
                "main.py": GOOD_BOT,
            }
        ),
        "not in the archive",
    ),
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


def test_look_alike_names_are_refused_naming_both_members():
    """Two files that read the same on screen must not both ship: which one runs is a trap."""
    with pytest.raises(UploadRejected) as refused:
        inspect_upload("bot.zip", MALICIOUS["NFD and NFC spellings of one name"][1], LIMITS)
    assert str(refused.value) == (
        "archive members 'cafe\u0301.py' and 'caf\u00e9.py' are one name once normalised "
        "(Unicode NFC): rename one"
    )
    with pytest.raises(UploadRejected) as refused:
        inspect_upload("bot.zip", MALICIOUS["zero-width space in a member name"][1], LIMITS)
    assert str(refused.value) == (
        "archive member 'main\\u200b.py' has a control or format character "
        "(U+200B ZERO WIDTH SPACE) in its name"
    )
    with pytest.raises(UploadRejected) as refused:
        inspect_upload("bot.zip", zip_with_nul_in_a_name(), LIMITS)
    assert str(refused.value) == "archive member 'evil\\x00.py' has a NUL byte in its name"


@pytest.mark.parametrize(
    "char",
    [
        "\x1b",
        "\x7f",
        "\x85",
        "\x9b",
        "\u061c",
        "\u200b",
        "\u200f",
        "\u202a",
        "\u202e",
        "\u2069",
        "\ufeff",
    ],
)
def test_manifest_commands_with_c0_c1_or_bidi_controls_are_refused_naming_the_character(char):
    """A command shown to its owner or an admin must read as what runs: \\x9b starts a terminal
    escape sequence, U+202E shows the rest of the argument reversed."""
    with pytest.raises(UploadRejected) as refused:
        manifest_command({"command": ["python3", f"ma{char}in.py"]})
    assert f"argument 1 contains the control character U+{ord(char):04X}" in str(refused.value)


def test_manifest_commands_keep_ordinary_unicode():
    assert manifest_command({"command": ["python3", "b\u00f6t-\u6a21\u578b.py"]}) == [
        "python3",
        "b\u00f6t-\u6a21\u578b.py",
    ]


def test_good_archives_are_accepted():
    manifest = {"command": ["python3", "bot/run.py"], "game": "batavia"}
    info = inspect_upload(
        "bot.zip",
        zip_bytes(
            {
                "monsoon.json": json.dumps(manifest).encode(),
                "bot/run.py": GOOD_BOT,
                "bot/helpers.py": b"X = 1\n",
            }
        ),
        LIMITS,
    )
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


@pytest.mark.parametrize("case", MALICIOUS, ids=list(MALICIOUS))
def test_api_refuses_malicious_upload_and_stores_nothing(case, alice, small_limits, settings):
    filename, data, reason = MALICIOUS[case]
    bot = make_bot(alice, "pepper")
    upload = io.BytesIO(data)
    upload.name = filename
    response = client_for(alice).post(
        f"/api/v1/bots/{bot.pk}/upload/", {"artifact": upload}, format="multipart"
    )
    assert response.status_code == 400, response.content
    # DRF itself refuses an empty file field before the service sees it; either way the
    # reason is in the answer.
    assert reason.lower() in json.dumps(response.json()).lower()
    assert BotVersion.objects.count() == 0
    assert stored_files(settings) == []


class _NeverRead(SimpleUploadedFile):
    """An upload that fails the test if anything reads it."""

    def read(self, *args: object, **kwargs: object) -> bytes:
        raise AssertionError("a file over the limit was read")


def test_a_file_over_the_limit_is_refused_before_it_is_read(small_limits):
    upload = _NeverRead("big.zip", b"x" * (LIMITS.max_bytes + 1))
    with pytest.raises(ServiceError, match=f"the limit is {LIMITS.max_bytes} bytes"):
        read_upload(upload)
    assert read_upload(SimpleUploadedFile("main.py", GOOD_BOT)) == GOOD_BOT


def test_manifest_for_another_game_is_refused(alice, small_limits, settings):
    bot = make_bot(alice, "nutmeg")
    upload = io.BytesIO(
        zip_bytes(
            {
                "monsoon.json": json.dumps(
                    {"command": "python3 main.py", "game": "borneo"}
                ).encode(),
                "main.py": GOOD_BOT,
            }
        )
    )
    upload.name = "bot.zip"
    response = client_for(alice).post(
        f"/api/v1/bots/{bot.pk}/upload/", {"artifact": upload}, format="multipart"
    )
    assert response.status_code == 400
    assert "borneo" in response.json()["detail"]
    assert BotVersion.objects.count() == 0
    assert stored_files(settings) == []


def test_bot_for_unknown_game_is_refused(alice):
    response = client_for(alice).post("/api/v1/bots/", {"name": "mace", "game": "monopoly"})
    assert response.status_code == 400
    assert "unknown game 'monopoly'" in response.json()["detail"]


def test_duplicate_members_are_refused():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("main.py", GOOD_BOT)
        with pytest.warns(UserWarning, match="Duplicate"):
            archive.writestr("main.py", b"print('other')\n")
    with pytest.raises(UploadRejected, match="twice"):
        inspect_upload("bot.zip", buffer.getvalue(), LIMITS)


def test_error_text_from_a_non_utf8_name_is_safe_to_store_and_show(alice, small_limits):
    bot = make_bot(alice, "saffron")
    upload = io.BytesIO(non_utf8_tar())
    upload.name = "bot.tar.gz"
    response = client_for(alice).post(
        f"/api/v1/bots/{bot.pk}/upload/", {"artifact": upload}, format="multipart"
    )
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert "\\udcff" in detail  # escaped, not a lone surrogate
    detail.encode("utf-8")


def test_executable_bit_of_members_is_kept_and_nothing_else():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("monsoon.json", json.dumps({"command": ["./mybot"]}))
        for name, mode in (("mybot", 0o4777), ("data.txt", 0o666)):
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFREG | mode) << 16
            archive.writestr(info, b"#!/bin/sh\n")
    members = artifact_members("zip", buffer.getvalue(), LIMITS)
    assert members["mybot"].executable and not members["data.txt"].executable
    script, payload = regular("mybot", b"#!/bin/sh\n")
    script.mode = 0o755
    plain, plain_payload = regular("notes.txt", b"x")
    plain.mode = 0o644
    members = artifact_members(
        "tar.gz", tar_gz([script, plain], {"mybot": payload, "notes.txt": plain_payload}), LIMITS
    )
    assert members["mybot"].executable and not members["notes.txt"].executable


def test_a_huge_generated_source_is_refused_without_compiling_it_here():
    """A 20 KB zip holding a 20 MiB ``a=1`` file grew a web worker to ~5 GB: the compile runs
    in a limited child, which gives up, and this process only holds the file itself."""
    import tracemalloc

    limits = UploadLimits()  # the documented defaults
    source = b"a=1\n" * (limits.max_unpacked_bytes // 4 - 64)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("main.py", source)
    data = buffer.getvalue()
    assert len(data) < limits.max_bytes
    del source
    tracemalloc.start()
    try:
        with pytest.raises(UploadRejected, match=r"cannot be compiled|to compile"):
            inspect_upload("bot.zip", data, limits)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 100 * 1024 * 1024


def test_syntax_errors_are_still_found_in_every_source():
    files = {"main.py": GOOD_BOT, "lib/a.py": b"X = 1\n", "lib/b.py": b"def f(:\n"}
    with pytest.raises(UploadRejected, match=r"lib/b\.py has a syntax error on line 1"):
        inspect_upload("bot.zip", zip_bytes(files), LIMITS)


def test_an_archive_of_the_current_folder_made_by_tar_is_accepted(tmp_path):
    """`tar czf mybot.tar.gz .` names the folder itself "./" and every file "./main.py"."""
    (tmp_path / "main.py").write_bytes(GOOD_BOT)
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "helper.py").write_text("X = 1\n")
    subprocess.run(["tar", "czf", "mybot.tar.gz", "."], cwd=tmp_path, check=False)
    data = (tmp_path / "mybot.tar.gz").read_bytes()
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        assert "./main.py" in archive.getnames()
    info = inspect_upload("mybot.tar.gz", data, LIMITS)
    assert info.command == ["python3", "main.py"]
    assert set(info.files) >= {"main.py", "lib/helper.py"}


@pytest.mark.parametrize("name", [".", "./"])
def test_only_a_folder_entry_may_name_the_archive_top(name):
    with pytest.raises(UploadRejected, match="no file name"):
        inspect_upload("bot.tar.gz", tar_gz([regular(name, b"x")[0]], {name: b"x"}), LIMITS)


# --- folders count, shell commands, identical uploads stored once --------------------------------


def zip_with_folders(count: int) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("main.py", GOOD_BOT)
        for i in range(count):
            archive.writestr(zipfile.ZipInfo(f"empty-{i}/"), b"")
    return buffer.getvalue()


def tar_with_folders(count: int) -> bytes:
    folders = []
    for i in range(count):
        info = tarfile.TarInfo(f"empty-{i}")
        info.type = tarfile.DIRTYPE
        folders.append(info)
    main, data = regular("main.py", GOOD_BOT)
    return tar_gz([main, *folders], {"main.py": data})


@pytest.mark.parametrize(
    "filename, make", [("bot.zip", zip_with_folders), ("bot.tar.gz", tar_with_folders)]
)
def test_empty_folders_count_towards_the_file_limit(filename, make):
    """30,000 empty folders were accepted (5.5 s in the web worker) under a 200-file limit."""
    assert inspect_upload(filename, make(LIMITS.max_files - 1), LIMITS).file_count == 1
    with pytest.raises(UploadRejected, match="more than 10 files and folders"):
        inspect_upload(filename, make(LIMITS.max_files), LIMITS)


def shell_zip(script: str, files: dict[str, bytes]) -> bytes:
    manifest = {"command": ["sh", "-c", script]}
    return zip_bytes({"monsoon.json": json.dumps(manifest).encode(), **files})


def test_a_shell_command_that_runs_a_file_of_the_archive_is_accepted():
    data = shell_zip("ulimit -s 8192; exec python3 main.py", {"main.py": GOOD_BOT})
    assert inspect_upload("bot.zip", data, LIMITS).command[0] == "sh"
    nested = shell_zip("cd bot && exec python3 main.py", {"bot/main.py": GOOD_BOT})
    assert inspect_upload("bot.zip", nested, LIMITS).command[-1].endswith("main.py")


def test_a_shell_command_that_runs_a_missing_file_says_which():
    data = shell_zip("exec python3 mian.py", {"main.py": GOOD_BOT})
    with pytest.raises(UploadRejected, match=r"shell command runs 'mian\.py', which is not in"):
        inspect_upload("bot.zip", data, LIMITS)


def test_identical_uploads_are_stored_once(alice, settings):
    """16 identical uploads kept 16 copies; the content is now stored once by its hash."""
    from ladder.bots.services import upload_version

    first, second = make_bot(alice, "pepper"), make_bot(alice, "salt")
    versions = [
        upload_version(bot, user=alice, filename="main.py", data=GOOD_BOT)
        for bot in (first, first, second)
    ]
    assert len({v.artifact.name for v in versions}) == 1
    assert len(stored_files(settings)) == 1
    other = upload_version(first, user=alice, filename="main.py", data=GOOD_BOT + b"# v2\n")
    assert other.artifact.name != versions[0].artifact.name
    assert len(stored_files(settings)) == 2
    for version in (*versions, other):
        version.refresh_from_db()
        with version.artifact.open("rb") as stream:
            assert hashlib.sha256(stream.read()).hexdigest() == version.sha256
