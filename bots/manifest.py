"""The bot manifest (``monsoon.json``): the one check of the command it names.

Shared by the upload validator (``ladder.bots.artifacts``), ``monsoon play`` and the worker, and
shipped in the bot authors' kit, so it imports only the standard library.
"""

from __future__ import annotations

import unicodedata

MANIFEST_NAME = "monsoon.json"
MAX_COMMAND_ARGS = 32
MAX_ARG_CHARS = 1024
MATCHES_VALUES = ("one", "many")
"""What ``"matches"`` may say: ``"one"`` (the default) or ``"many"`` matches per process."""


BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""Format characters that reorder the text shown around them (Trojan Source): a name or command
holding one reads differently on screen from what runs."""


def unsafe_character(text: str) -> str | None:
    """The first character of ``text`` a terminal or page could misread, else None.

    C0 controls, DEL, C1 controls (``\\x9b`` is a one-byte CSI to many terminals) and every
    format character (Unicode category Cf): the bidirectional embeddings, overrides, isolates
    and marks, and the invisible ones (``main\\u200b.py`` reads as ``main.py`` beside it).
    """
    return next(
        (
            c
            for c in text
            if ord(c) < 32
            or 0x7F <= ord(c) <= 0x9F
            or c in BIDI_CONTROLS
            or unicodedata.category(c) == "Cf"
        ),
        None,
    )


def describe_character(char: str) -> str:
    """``U+200B ZERO WIDTH SPACE``: the code point, and its name where Unicode gives one."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {name}" if name else "")


class UploadRejected(ValueError):
    """The upload is refused; the message tells the user exactly why."""


def manifest_command(manifest: object) -> list[str]:
    """The command a manifest names, or :class:`UploadRejected` saying what is wrong.

    One check for the upload, ``monsoon play`` and the worker: an argument the kernel cannot
    pass (a NUL byte) or a terminal could misread (control characters) is refused here, not
    found out as a crash when the bot is started.
    """
    if not isinstance(manifest, dict):
        raise UploadRejected(f"{MANIFEST_NAME} must be a JSON object")
    command = manifest.get("command")
    if isinstance(command, str):
        command = command.split()
    if (
        not isinstance(command, list)
        or not command
        or not all(isinstance(arg, str) and arg for arg in command)
    ):
        raise UploadRejected(
            f'{MANIFEST_NAME} must name the command, e.g. {{"command": ["python3", "main.py"]}}'
        )
    if len(command) > MAX_COMMAND_ARGS:
        raise UploadRejected(
            f"{MANIFEST_NAME}: the command has {len(command)} arguments; the limit is "
            f"{MAX_COMMAND_ARGS}"
        )
    for index, arg in enumerate(command):
        if len(arg) > MAX_ARG_CHARS:
            raise UploadRejected(
                f"{MANIFEST_NAME}: command argument {index} is longer than {MAX_ARG_CHARS} "
                "characters"
            )
        bad = unsafe_character(arg)
        if bad is not None:
            raise UploadRejected(
                f"{MANIFEST_NAME}: command argument {index} contains the control character "
                f"{describe_character(bad)}"
                + (" (a NUL byte cannot be passed to a program)" if bad == "\x00" else "")
            )
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            raise UploadRejected(
                f"{MANIFEST_NAME}: command argument {index} is not valid Unicode"
            ) from None
    manifest_matches(manifest)
    return command


def manifest_matches(manifest: dict[str, object]) -> str:
    """Whether the bot plays ``"one"`` match per process (the default) or ``"many"``.

    A bot that declares ``"many"`` loops over matches (``docs/bot-protocol.md``, "Many matches
    in one process"): the worker may keep it running between matches, which saves a sandbox
    and an interpreter start per match. Checked with the command, so an upload with a
    misspelt value is refused rather than silently played one match at a time.
    """
    matches = manifest.get("matches", "one")
    if not isinstance(matches, str) or matches not in MATCHES_VALUES:
        raise UploadRejected(
            f'{MANIFEST_NAME}: "matches" must be "one" or "many", not {str(matches)[:40]!r}'
        )
    return matches
