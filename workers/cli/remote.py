"""``monsoon login``, ``submit``, ``status`` and ``logs``: the ladder's REST API from the kit.

Standard library only (``urllib``): the kit installs with no dependencies. The token lives in a
user config file (``$MONSOON_CONFIG``, else ``$XDG_CONFIG_HOME/monsoon/config.json``, else
``~/.config/monsoon/config.json``) readable by its owner alone (0600). Every request sends the
kit's version in :data:`bots.kit.KIT_HEADER`; a warning the server answers with (the kit plays
other rules than the server) is printed once on stderr. The token goes to the origin the user
logged in to and nowhere else (:mod:`workers.cli.origin`): a ``next`` link or a redirect to
another origin is refused, and so is a plain ``http://`` site on another machine unless the
user said ``--insecure`` when logging in.
"""

from __future__ import annotations

import getpass
import gzip
import http.client
import io
import json
import os
import sys
import tarfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from bots.kit import KIT_HEADER, KIT_WARNING_HEADER, kit_version
from bots.manifest import MANIFEST_NAME
from workers.cli.origin import Origin, elsewhere, exposed

PENDING_STATUSES = ("pending", "validating")
PACK_SKIPPED = {"__pycache__", ".git", "target", "classes", "node_modules"}
"""Folders never packed by ``monsoon submit`` (caches and build folders)."""


class RemoteError(Exception):
    """A refusal of the server or an unreachable site, as one line for the user."""


def config_path() -> Path:
    explicit = os.environ.get("MONSOON_CONFIG")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "monsoon" / "config.json"


def load_config() -> dict[str, str]:
    path = config_path()
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise RemoteError(f"cannot read {path}: {exc}") from None
    return {k: v for k, v in data.items() if isinstance(v, str)} if isinstance(data, dict) else {}


def save_config(config: dict[str, str]) -> Path:
    """Write the config readable by its owner alone (0600), whatever it was before."""
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(descriptor, 0o600)
    with os.fdopen(descriptor, "w") as stream:
        json.dump(config, stream, indent=1)
        stream.write("\n")
    return path


class _SameOriginRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a redirect within the site's origin only: urllib would carry the token (and
    every other header) to whatever host the ``Location`` names."""

    def __init__(self, home: Origin) -> None:
        super().__init__()
        self.home = home

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: http.client.HTTPMessage,
        newurl: str,
    ) -> urllib.request.Request | None:
        problem = elsewhere(self.home, newurl, f"a redirect ({code})")
        if problem:
            fp.close()
            raise RemoteError(problem)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


@dataclass
class Api:
    """The site's ``/api/v1/`` with the user's token, which goes to the site's origin alone.

    ``insecure``: the user accepted a plain ``http://`` site on another machine (``monsoon
    login --insecure``); without it such a site is refused before anything is sent to it, and
    with it every command warns.
    """

    site: str
    token: str = ""
    insecure: bool = False
    warn: Callable[[str], None] = field(
        default=lambda text: print(f"monsoon: warning: {text}", file=sys.stderr)
    )
    warned: bool = False
    home: Origin = field(init=False)
    opener: urllib.request.OpenerDirector = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.site = self.site.rstrip("/")
        home = Origin.of(self.site)
        if home is None:
            raise RemoteError(
                f"the site must be an http:// or https:// address, not {self.site!r} "
                "(monsoon login --site)"
            )
        if exposed(home) and not self.insecure:
            raise RemoteError(
                f"{self.site} is plain http://: your password and API token would cross the "
                "network unencrypted. Use the site's https:// address, or `monsoon login "
                "--insecure` if you must"
            )
        if exposed(home):
            self.warn(
                f"{self.site} is plain http:// (--insecure): your password and API token "
                "cross the network unencrypted"
            )
        self.home = home
        self.opener = urllib.request.build_opener(_SameOriginRedirects(home))

    def url(self, path: str, what: str = "a link") -> str:
        """The API's address of ``path``; an absolute address only on the site's origin."""
        if "://" not in path:
            return f"{self.site}/api/v1/{path.lstrip('/')}"
        problem = elsewhere(self.home, path, what)
        if problem:
            raise RemoteError(problem)
        return path

    def call(
        self,
        method: str,
        path: str,
        *,
        body: dict[str, Any] | None = None,
        upload: tuple[str, bytes] | None = None,
    ) -> tuple[bytes, str]:
        """The response body and its content type; a refusal raises :class:`RemoteError`."""
        headers = {
            KIT_HEADER: kit_version(),
            "User-Agent": f"monsoon-kit/{kit_version()}",
            "Accept": "application/json",
            "Accept-Encoding": "gzip",
        }
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        elif upload is not None:
            data, headers["Content-Type"] = _multipart("artifact", *upload)
        # S310: url() refuses every scheme but http(s), so no file: or custom URL is opened.
        request = urllib.request.Request(  # noqa: S310
            self.url(path), data=data, headers=headers, method=method
        )
        try:
            with self.opener.open(request, timeout=60) as response:
                self._note(response.headers.get(KIT_WARNING_HEADER))
                raw = response.read()
                if response.headers.get("Content-Encoding") == "gzip":
                    raw = gzip.decompress(raw)
                return raw, response.headers.get("Content-Type", "")
        except urllib.error.HTTPError as exc:
            self._note(exc.headers.get(KIT_WARNING_HEADER))
            raise RemoteError(f"{method} {self.url(path)}: {exc.code} {_detail(exc)}") from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise RemoteError(f"cannot reach {self.site}: {reason}") from None

    def json(
        self,
        method: str,
        path: str,
        *,
        body: dict[str, Any] | None = None,
        upload: tuple[str, bytes] | None = None,
    ) -> Any:  # noqa: ANN401 - the API's answers are JSON documents of any shape
        raw, _ = self.call(method, path, body=body, upload=upload)
        try:
            return json.loads(raw)
        except ValueError:
            raise RemoteError(f"{self.url(path)} did not answer JSON") from None

    def pages(self, path: str) -> list[dict[str, Any]]:
        """Every item of a paged (or plain list) answer."""
        items: list[dict[str, Any]] = []
        next_url: str | None = path
        while next_url:
            page = self.json("GET", self.url(next_url, "the next page link"))
            if isinstance(page, list):
                return items + page
            items += page.get("results", [])
            next_url = page.get("next")
        return items

    def _note(self, warning: str | None) -> None:
        if warning and not self.warned:
            self.warned = True
            self.warn(warning)


def _detail(error: urllib.error.HTTPError) -> str:
    """The API's reason for a refusal: its ``detail``, or each field's messages."""
    try:
        body = json.loads(error.read() or b"null")
    except ValueError:
        return error.reason or ""
    if isinstance(body, dict):
        if "detail" in body:
            return str(body["detail"])
        return "; ".join(
            f"{key}: {' '.join(map(str, value)) if isinstance(value, list) else value}"
            for key, value in body.items()
        )
    return str(body)


def _multipart(field_name: str, filename: str, content: bytes) -> tuple[bytes, str]:
    boundary = f"monsoon-{uuid.uuid4().hex}"
    head = (
        f"--{boundary}\r\nContent-Disposition: form-data; name={json.dumps(field_name)}; "
        f"filename={json.dumps(filename)}\r\nContent-Type: application/octet-stream\r\n\r\n"
    ).encode()
    return head + content + f"\r\n--{boundary}--\r\n".encode(), (
        f"multipart/form-data; boundary={boundary}"
    )


def signed_in() -> Api:
    """The API with the stored token (``monsoon login`` first).

    The config's ``insecure`` names the plain ``http://`` site the user accepted with ``monsoon
    login --insecure``; it counts for that site only, so a site edited into the file by hand
    is refused as any other.
    """
    config = load_config()
    token = config.get("token", "")
    if not token:
        raise RemoteError("not logged in: run `monsoon login --site URL` first")
    site = config.get("site", "")
    return Api(site, token, insecure=bool(site) and config.get("insecure") == site)


def login(api: Api, username: str, password: str, token: str) -> tuple[str, Path]:
    """Check the credentials (or token) with the API and store the token; (user name, file).

    Each login chooses anew: the API's ``insecure`` is stored only when given, for its site."""
    if not token:
        token = api.json("POST", "auth/token/", body={"username": username, "password": password})[
            "token"
        ]
    api.token = token
    me = api.json("GET", "me/")
    config = {"site": api.site, "token": token, "username": me["username"]}
    if api.insecure and exposed(api.home):
        config["insecure"] = api.site
    path = save_config(config)
    return me["username"], path


def pack_folder(folder: Path) -> bytes:
    """The folder as a .tar.gz (files at the top level, modes kept), as ``tar czf`` makes it."""
    if not folder.is_dir():
        raise RemoteError(f"{folder} is not a folder")
    if not (folder / MANIFEST_NAME).is_file() and not (folder / "main.py").is_file():
        raise RemoteError(f"{folder} has neither main.py nor {MANIFEST_NAME}")
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for path in sorted(folder.rglob("*")):
            relative = path.relative_to(folder)
            if set(relative.parts) & PACK_SKIPPED or path.name.endswith((".tar.gz", ".zip")):
                continue
            if path.is_file() and not path.is_symlink():
                info = archive.gettarinfo(str(path), arcname=relative.as_posix())
                info.uid = info.gid = 0
                info.uname = info.gname = ""
                with path.open("rb") as stream:
                    archive.addfile(info, stream)
    return buffer.getvalue()


def declared_game(folder: Path) -> str | None:
    try:
        manifest = json.loads((folder / MANIFEST_NAME).read_text())
    except (OSError, ValueError):
        return None
    game = manifest.get("game") if isinstance(manifest, dict) else None
    return game if isinstance(game, str) else None


def find_bots(api: Api, username: str) -> list[dict[str, Any]]:
    """The user's bots (the list also holds others' public bots: filtered by owner)."""
    query = urllib.parse.urlencode({"owner": username})
    return [bot for bot in api.pages(f"bots/?{query}") if bot["owner"] == username]


def find_or_create_bot(api: Api, username: str, name: str, game: str | None) -> dict[str, Any]:
    for bot in find_bots(api, username):
        if bot["name"] == name:
            if game and bot["game"] != game:
                raise RemoteError(f"your bot {name!r} plays {bot['game']}, not {game}")
            return bot
    if not game:
        raise RemoteError(
            f'no bot {name!r} yet: say its game with --game (or "game" in {MANIFEST_NAME})'
        )
    created: dict[str, Any] = api.json(
        "POST", "bots/", body={"name": name, "game": game, "is_public": True}
    )
    print(f"created bot {name} ({game}, id {created['id']})")
    return created


def wait_for_verdict(
    api: Api, version_id: int, timeout_s: float, poll_s: float = 1.0
) -> dict[str, Any]:
    """Poll the version until validation has decided (or ``timeout_s`` passes)."""
    deadline = time.monotonic() + timeout_s
    while True:
        version: dict[str, Any] = api.json("GET", f"versions/{version_id}/")
        if version["status"] not in PENDING_STATUSES:
            return version
        if time.monotonic() > deadline:
            raise RemoteError(
                f"version {version_id} is still {version['status']} after {timeout_s:.0f} s"
            )
        time.sleep(poll_s)


def prompt(text: str, secret: bool = False) -> str:
    """Ask on the terminal; no answer (end of input) is a clear refusal, not a traceback."""
    try:
        return getpass.getpass(text) if secret else input(text)
    except EOFError:
        raise RemoteError(
            f"no answer to {text.strip()!r}: give --username (and MONSOON_PASSWORD) or --token"
        ) from None
