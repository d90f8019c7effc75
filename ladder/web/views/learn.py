"""The site's way in: rules per game, getting started, protocol and language docs, kit downloads.

The rules, protocol and language pages render the repository's own Markdown (``docs/``) through
``ladder.web.docs``; the starter kits are packed on request from ``bots/starters`` with the
same exclusions as ``monsoon new-bot`` (``copy_kit``), so a download is what the CLI would copy.
The bot authors' kit (``bots.kit``: engine, SDK, runner and the ``monsoon`` command as one wheel)
is served beside them.
"""

from __future__ import annotations

import io
import shlex
import tarfile
import tempfile
from pathlib import Path

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from bots.kit import build_wheel, kit_version, wheel_name
from bots.starters import KITS, MANIFEST, copy_kit
from engine.registry import all_games
from ladder.web.docs import RenderedDoc, rendered

LANGUAGE_TITLES = {
    "python": "Python",
    "javascript": "JavaScript (Node)",
    "cpp": "C++",
    "rust": "Rust",
    "java": "Java",
}


def _doc_page(request: HttpRequest, doc: RenderedDoc, **extra: object) -> HttpResponse:
    return render(request, "web/doc.html", {"doc": doc, **extra})


@require_GET
def rules(request: HttpRequest, game: str) -> HttpResponse:
    spec = all_games().get(game)
    if spec is None:
        raise Http404(f"no game named {game!r}")
    return _doc_page(
        request,
        rendered(f"games/{spec.name}.md"),
        game=spec,
        schema_url=f"{reverse('game-detail', args=[spec.name])}schema/",
        game_script=f"web/games/{spec.name}.js",  # draws the page's worked examples
    )


@require_GET
def protocol(request: HttpRequest) -> HttpResponse:
    return _doc_page(request, rendered("bot-protocol.md"))


@require_GET
def languages(request: HttpRequest) -> HttpResponse:
    return _doc_page(request, rendered("languages.md"))


def kit_rows() -> list[dict[str, object]]:
    """Per language: its title, download link, build commands and the files to upload."""
    rows: list[dict[str, object]] = []
    for language, kit in KITS.items():
        rows.append(
            {
                "language": language,
                "title": LANGUAGE_TITLES.get(language, language),
                "download": reverse("web:kit", args=[language]),
                "build": [shlex.join(command) for command in kit.build],
                "upload": shlex.join(["tar", "czf", "mybot.tar.gz", MANIFEST, *kit.upload]),
                "command": shlex.join(kit.command()),
                "toolchain": ", ".join(kit.toolchain),
            }
        )
    return rows


@require_GET
def start(request: HttpRequest) -> HttpResponse:
    games = list(all_games().values())
    wheel = reverse("web:kit-wheel", args=[wheel_name()])
    return render(
        request,
        "web/start.html",
        {
            "kits": kit_rows(),
            "games": games,
            "kit_version": kit_version(),
            "wheel": wheel,
            "wheel_url": request.build_absolute_uri(wheel),
            "site_url": request.build_absolute_uri("/").rstrip("/"),
        },
    )


@require_GET
def kit_wheel(request: HttpRequest, filename: str) -> HttpResponse:
    """The bot authors' kit (``bots.kit``): ``pip install`` this URL, or the downloaded file.

    Built once per process from the running sources, byte for byte alike in every process; only
    the current version's name is served (an old name is a 404 naming the current one).
    """
    name, data = build_wheel()
    if filename != name:
        raise Http404(f"no kit {filename!r}: the current kit is {name}")
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def kit_archive(language: str) -> bytes:
    """The kit as ``<language>-starter/...`` in a .tar.gz, file modes kept, no build output."""
    buffer = io.BytesIO()
    with tempfile.TemporaryDirectory() as scratch:
        folder = copy_kit(language, Path(scratch) / "kit")
        with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
            for path in sorted(folder.rglob("*")):
                if "__pycache__" in path.parts or path.is_dir():
                    continue
                name = f"{language}-starter/{path.relative_to(folder).as_posix()}"
                info = archive.gettarinfo(str(path), arcname=name)
                info.uid = info.gid = 0
                info.uname = info.gname = ""
                with path.open("rb") as stream:
                    archive.addfile(info, stream)
    return buffer.getvalue()


@require_GET
def kit(request: HttpRequest, language: str) -> HttpResponse:
    if language not in KITS:
        raise Http404(f"no starter kit for {language!r}; there are: {', '.join(KITS)}")
    response = HttpResponse(kit_archive(language), content_type="application/gzip")
    response["Content-Disposition"] = f'attachment; filename="{language}-starter.tar.gz"'
    return response
