"""The repository's Markdown docs rendered as site pages: rules, protocol, languages.

The pages are the files in ``docs/`` themselves, so the site never drifts from what the
repository documents.  Raw HTML in the Markdown is escaped, not passed through (markdown-it's
``html`` option off, and its link validation refuses ``javascript:`` and similar URLs), which is
the sanitising; HTML comments (the generated schema's BEGIN/END markers) are dropped before
rendering.  A fenced ``example`` block becomes a worked example (``ladder.web.examples``).
Links between docs point at the site's own pages; links to other repository files become plain
text, since the site does not serve them.  A rendering is cached per file and
modification time, so an edited doc shows without a restart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import OptionsDict

from ladder.web.examples import render_example

COMMENT = re.compile(r"<!--.*?-->\s*", re.DOTALL)
SITE_PATH = re.compile(r"^/(?:api|games|docs|start)/")  # the site's own pages, kept as links
EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//|#)", re.IGNORECASE)


def docs_dir() -> Path:
    return Path(settings.BASE_DIR) / "docs"


@dataclass(frozen=True)
class RenderedDoc:
    title: str
    html: SafeString
    headings: tuple[tuple[str, str], ...]
    """(anchor, text) of each second-level heading, for a table of contents."""


def _site_url(target: str) -> str | None:
    """The site page of a doc a relative link names (``languages.md``, ``games/borneo.md``)."""
    path, _, fragment = target.partition("#")
    name = Path(path).name
    anchor = f"#{fragment}" if fragment else ""
    if name == "bot-protocol.md":
        return reverse("web:protocol") + anchor
    if name == "languages.md":
        return reverse("web:languages") + anchor
    if path.startswith(("games/", "../games/")) or (
        name.endswith(".md") and (docs_dir() / "games" / name).is_file()
    ):
        return reverse("web:rules", args=[name.removesuffix(".md")]) + anchor
    return None


def _rewrite_links(tokens: list[Token]) -> None:
    """Doc-to-doc links go to site pages; links to other repository files become text."""
    for block in tokens:
        children = block.children or []
        for i, token in enumerate(children):
            if token.type != "link_open":
                continue
            href = str(token.attrGet("href") or "")
            if not href or EXTERNAL.match(href) or SITE_PATH.match(href):
                continue
            url = _site_url(href)
            if url is not None:
                token.attrSet("href", url)
                continue
            token.type, token.tag, token.attrs = "text", "", {}
            depth = 0
            for closing in children[i + 1 :]:
                if closing.type == "link_open":
                    depth += 1
                elif closing.type == "link_close":
                    if depth == 0:
                        closing.type, closing.tag = "text", ""
                        break
                    depth -= 1


def _anchor_headings(tokens: list[Token]) -> list[tuple[int, str, str]]:
    """Give each heading an id from its text (unique within the page)."""
    seen: dict[str, int] = {}
    found = []
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        text = tokens[index + 1].content
        anchor = slugify(text) or "section"
        if anchor in seen:
            seen[anchor] += 1
            anchor = f"{anchor}-{seen[anchor]}"
        else:
            seen[anchor] = 0
        token.attrSet("id", anchor)
        found.append((int(token.tag[1]), anchor, text))
    return found


def _fence(
    renderer: RendererHTML,
    tokens: Sequence[Token],
    idx: int,
    options: OptionsDict,
    env: dict[str, Any],
) -> str:
    """An ``example`` block becomes a drawn position (``ladder.web.examples``); others stay code."""
    token = tokens[idx]
    if token.info.strip().split(" ")[0] == "example":
        return render_example(token.content)
    return str(RendererHTML.fence(renderer, tokens, idx, options, env))


def _parser() -> MarkdownIt:
    parser = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    parser.add_render_rule("fence", _fence)
    return parser


def render_markdown(text: str) -> RenderedDoc:
    parser = _parser()
    env: dict[str, Any] = {}
    tokens = parser.parse(COMMENT.sub("", text), env)
    headings = _anchor_headings(tokens)
    _rewrite_links(tokens)
    body = parser.renderer.render(tokens, parser.options, env)
    title = next((text for level, _, text in headings if level == 1), "")
    # The page template prints the title itself.
    body = re.sub(r"^<h1[^>]*>.*?</h1>\n", "", body, count=1)
    return RenderedDoc(
        title=title,
        html=mark_safe(body),  # markdown-it escapes raw HTML (html=False)
        headings=tuple((anchor, text) for level, anchor, text in headings if level == 2),
    )


@lru_cache(maxsize=32)
def _render_file(path: Path, mtime_ns: int) -> RenderedDoc:
    return render_markdown(path.read_text(encoding="utf-8"))


def rendered(relative: str) -> RenderedDoc:
    """The doc at ``docs/<relative>``, rendered (cached until the file changes)."""
    path = docs_dir() / relative
    return _render_file(path, path.stat().st_mtime_ns)
