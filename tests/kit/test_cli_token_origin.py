"""``monsoon`` sends the API token only to the origin the user logged in to.

Real servers in threads (``tests/kit/fake_site.py``): the site, and a second one on another
port (another origin) that a page links or redirects to and that must never see the token.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.kit.fake_site import FakeSite, self_signed_tls
from workers.cli import main

TOKEN = "0123456789abcdef"


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "config" / "monsoon.json"
    monkeypatch.setenv("MONSOON_CONFIG", str(path))
    monkeypatch.delenv("MONSOON_SITE", raising=False)
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "no_proxy", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    return path


@pytest.fixture
def servers() -> Iterator[list[FakeSite]]:
    """Started with :func:`serve`; all closed at the end."""
    started: list[FakeSite] = []
    yield started
    for server in started:
        server.close()


def serve(servers: list[FakeSite], **kwargs: object) -> FakeSite:
    server = FakeSite(**kwargs)  # type: ignore[arg-type]
    servers.append(server)
    return server


def ladder_site(servers: list[FakeSite], **kwargs: object) -> FakeSite:
    """A site that knows alice's token."""
    site = serve(servers, **kwargs)
    site.json("/api/v1/me/", {"username": "alice"})
    return site


def monsoon(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def logged_in(capsys: pytest.CaptureFixture[str], site: FakeSite, *extra: str) -> None:
    code, out, err = monsoon(capsys, "login", "--site", site.url, "--token", TOKEN, *extra)
    assert code == 0, err
    assert "as alice" in out


def test_status_refuses_a_next_link_to_another_origin(servers, config, capsys):
    site, other = ladder_site(servers), serve(servers)
    other.json("/api/v1/bots/?owner=alice&page=2", {"results": [], "next": None})
    site.json(
        "/api/v1/bots/?owner=alice",
        {"results": [], "next": f"{other.url}/api/v1/bots/?owner=alice&page=2"},
    )
    logged_in(capsys, site)
    code, _, err = monsoon(capsys, "status")
    assert code == 2 and "Traceback" not in err
    assert f"the next page link to {other.url}" in err
    assert f"sent only to {site.url}" in err
    assert other.seen == []  # not asked at all, so never sent the token


def test_status_follows_a_next_link_on_the_same_origin(servers, config, capsys):
    site = ladder_site(servers)
    bot = {"id": 7, "name": "paged", "game": "borneo", "owner": "alice"}
    site.json("/api/v1/bots/?owner=alice", {"results": [], "next": f"{site.url}/api/v1/bots/?p=2"})
    site.json("/api/v1/bots/?p=2", {"results": [bot], "next": None})
    site.json("/api/v1/bots/7/ratings/", [])
    site.json("/api/v1/bots/7/versions/", [{"id": 70, "number": 1, "status": "active"}])
    logged_in(capsys, site)
    code, out, err = monsoon(capsys, "status")
    assert code == 0, err
    assert "paged" in out and "borneo" in out
    page_two = [seen for seen in site.seen if seen.path == "/api/v1/bots/?p=2"]
    assert [seen.headers.get("Authorization") for seen in page_two] == [f"Token {TOKEN}"]


def test_logs_refuses_a_redirect_to_another_origin(servers, config, capsys, tmp_path):
    site, other = ladder_site(servers), serve(servers)
    other.json("/logs/5.json", {"stolen": True})
    site.redirect("/api/v1/matches/5/log/", f"{other.url}/logs/5.json")
    logged_in(capsys, site)
    output = tmp_path / "game.json"
    code, _, err = monsoon(capsys, "logs", "5", "-o", str(output))
    assert code == 2 and "Traceback" not in err
    assert f"a redirect (302) to {other.url}" in err
    assert other.seen == [] and not output.exists()


def test_logs_follow_a_redirect_on_the_same_origin_with_the_token(
    servers, config, capsys, tmp_path
):
    site = ladder_site(servers)
    site.redirect("/api/v1/matches/6/log/", "/media/logs/6.json", code=307)
    site.json("/media/logs/6.json", {"game": "borneo"})
    logged_in(capsys, site)
    output = tmp_path / "game.json"
    code, _, err = monsoon(capsys, "logs", "6", "-o", str(output))
    assert code == 0, err
    assert json.loads(output.read_text()) == {"game": "borneo"}
    media = [seen for seen in site.seen if seen.path == "/media/logs/6.json"]
    assert [seen.headers.get("Authorization") for seen in media] == [f"Token {TOKEN}"]


def test_a_redirect_from_https_to_http_on_the_same_host_is_refused(
    servers, config, capsys, tmp_path, monkeypatch
):
    tls, certificate = self_signed_tls(tmp_path)
    monkeypatch.setenv("SSL_CERT_FILE", str(certificate))
    site, plain = ladder_site(servers, tls=tls), serve(servers)
    plain.json("/api/v1/matches/5/log/", {"game": "borneo"})
    site.redirect("/api/v1/matches/5/log/", f"{plain.url}/api/v1/matches/5/log/", code=301)
    logged_in(capsys, site)
    assert site.tokens() == [f"Token {TOKEN}"]  # the login's me/, over TLS
    code, _, err = monsoon(capsys, "logs", "5", "-o", str(tmp_path / "game.json"))
    assert code == 2 and "Traceback" not in err
    assert f"a redirect (301) from https to http ({plain.url}/" in err
    assert plain.seen == []


def proxied(monkeypatch: pytest.MonkeyPatch, servers: list[FakeSite]) -> FakeSite:
    """A proxy through which every plain http:// request goes: it stands in for a site on
    another machine (``http://monsoon.example``), which no test can reach for real."""
    proxy = serve(servers)
    proxy.json("/api/v1/me/", {"username": "alice"})
    proxy.json("/api/v1/auth/token/", {"token": TOKEN})
    proxy.json("/api/v1/bots/?owner=alice", {"results": [], "next": None})
    monkeypatch.setenv("http_proxy", proxy.url)
    return proxy


def test_login_refuses_plain_http_to_another_machine(servers, config, capsys, monkeypatch):
    proxy = proxied(monkeypatch, servers)
    monkeypatch.setenv("MONSOON_PASSWORD", "secret")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # refused before any question
    for how in (["--token", TOKEN], ["--username", "alice"], []):
        code, _, err = monsoon(capsys, "login", "--site", "http://monsoon.example", *how)
        assert code == 2 and "Traceback" not in err
        assert "http://monsoon.example" in err and "https://" in err and "--insecure" in err
    assert proxy.seen == []  # neither the token nor the password went anywhere
    assert not config.exists()


def test_insecure_login_is_remembered_and_warned_about_each_time(
    servers, config, capsys, monkeypatch
):
    proxy = proxied(monkeypatch, servers)
    monkeypatch.setenv("MONSOON_PASSWORD", "secret")
    code, out, err = monsoon(
        capsys, "login", "--site", "http://monsoon.example", "--username", "alice", "--insecure"
    )
    assert code == 0 and "as alice" in out
    warning = "warning: http://monsoon.example is plain http:// (--insecure)"
    assert err.count(warning) == 1
    assert [seen.headers["Host"] for seen in proxy.seen] == ["monsoon.example"] * 2
    code, out, err = monsoon(capsys, "status")
    assert code == 0 and "no bots yet" in out
    assert err.count(warning) == 1
    assert proxy.tokens()[-1] == f"Token {TOKEN}"

    asked = len(proxy.seen)
    stored = json.loads(config.read_text())
    del stored["insecure"]  # a config without the choice (an older kit's, or edited)
    config.write_text(json.dumps(stored))
    code, _, err = monsoon(capsys, "status")
    assert code == 2 and "--insecure" in err and "monsoon login" in err
    assert len(proxy.seen) == asked


def test_each_login_to_a_plain_http_site_needs_insecure_again(servers, config, capsys, monkeypatch):
    proxy = proxied(monkeypatch, servers)
    site = "http://monsoon.example"
    assert monsoon(capsys, "login", "--site", site, "--token", TOKEN, "--insecure")[0] == 0
    asked = len(proxy.seen)
    code, _, err = monsoon(capsys, "login", "--token", TOKEN)  # the stored site
    assert code == 2 and "--insecure" in err
    assert len(proxy.seen) == asked


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "localhost"])
def test_plain_http_on_this_machine_needs_no_insecure_and_no_warning(servers, config, capsys, host):
    site = ladder_site(servers, host=host)
    site.json("/api/v1/bots/?owner=alice", {"results": [], "next": None})
    logged_in(capsys, site)
    code, out, err = monsoon(capsys, "status")
    assert code == 0 and "no bots yet" in out
    assert "warning" not in err
    assert site.tokens()[-1] == f"Token {TOKEN}"


@pytest.mark.parametrize("site", ["http://127.8.9.10:9", "http://[::1]:9", "http://LocalHost:9"])
def test_every_loopback_address_counts_as_this_machine(config, capsys, site):
    """Nothing listens on port 9: the login gets as far as trying to connect."""
    code, _, err = monsoon(capsys, "login", "--site", site, "--token", TOKEN)
    assert code == 2 and "cannot reach" in err and "--insecure" not in err


@pytest.mark.parametrize(
    "site",
    ["http://localhost.example", "http://127.0.0.1.example", "http://[::2]", "http://0.0.0.0"],
)
def test_a_host_that_only_looks_local_is_another_machine(servers, config, capsys, site):
    code, _, err = monsoon(capsys, "login", "--site", site, "--token", TOKEN)
    assert code == 2 and "--insecure" in err
