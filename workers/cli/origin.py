"""Where ``monsoon`` may send the user's API token: the one origin the user logged in to.

An origin is a scheme, a host and a port, the line browsers draw around a site's cookies.
urllib keeps every header, ``Authorization`` too, when it follows a redirect to another host,
and a page's ``next`` link is whatever the server wrote into it: either would hand the token to
a host the user never chose. A plain ``http://`` site shows the password and the token to
anyone on the way, so it takes the user's explicit ``--insecure`` unless the host is this
machine. These functions say what is wrong, as one line; :mod:`workers.cli.remote` refuses.

Standard library only: this module ships in the kit.
"""

from __future__ import annotations

import ipaddress
import urllib.parse
from dataclasses import dataclass

DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True)
class Origin:
    scheme: str
    host: str
    port: int

    @classmethod
    def of(cls, url: str) -> Origin | None:
        """The origin of an http(s) address; None for any other address."""
        parts = urllib.parse.urlsplit(url)
        scheme = parts.scheme.lower()
        try:
            port = parts.port
        except ValueError:
            return None
        if scheme not in DEFAULT_PORTS or not parts.hostname:
            return None
        return cls(scheme, parts.hostname, port or DEFAULT_PORTS[scheme])

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}"

    @property
    def is_loopback(self) -> bool:
        """This machine: ``localhost``, 127.0.0.0/8 or ``::1`` (no name that merely looks so,
        such as ``localhost.example``, which any DNS server may point elsewhere)."""
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False


def elsewhere(home: Origin, url: str, what: str) -> str | None:
    """Why the token may not follow ``what`` (a link, a redirect) to ``url``; None when ``url``
    is on ``home``, the origin the user logged in to."""
    there = Origin.of(url)
    if there == home:
        return None
    if there is None:
        return f"refusing {what} to {url!r}: not an http:// or https:// address"
    if there.host == home.host and (home.scheme, there.scheme) == ("https", "http"):
        return (
            f"refusing {what} from https to http ({url}): the API token would cross the network "
            "unencrypted (behind a TLS proxy the site needs USE_X_FORWARDED_PROTO)"
        )
    return (
        f"refusing {what} to {there}: the API token is sent only to {home}, "
        "the site you logged in to"
    )


def exposed(origin: Origin) -> bool:
    """Plain ``http://`` to another machine: the password and the token readable on the way."""
    return origin.scheme == "http" and not origin.is_loopback
