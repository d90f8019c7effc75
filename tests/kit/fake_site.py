"""Real HTTP(S) servers in threads that answer ``monsoon``'s requests from a table of routes.

Each server keeps every request it was sent, headers included, so a test can show which host
saw the API token. Used where the Django test server cannot play the part: a second host a
page links or redirects to, an HTTPS site, a proxy standing in for a host on the network.
"""

from __future__ import annotations

import datetime
import ipaddress
import json
import ssl
import threading
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

Answer = tuple[int, dict[str, str], bytes]


@dataclass
class Seen:
    """One request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]


@dataclass
class FakeSite:
    """A server on 127.0.0.1 (a free port) with ``routes`` from path (with its query) to an
    answer; every other path is a JSON 404, as the API's."""

    host: str = "127.0.0.1"
    tls: ssl.SSLContext | None = None
    routes: dict[str, Answer] = field(default_factory=dict)
    seen: list[Seen] = field(default_factory=list)

    def __post_init__(self) -> None:
        site = self

        class Handler(BaseHTTPRequestHandler):
            def answer(self) -> None:
                # A proxy is sent the whole address ("http://host/path"): keep path and query.
                parts = urllib.parse.urlsplit(self.path)
                path = parts.path + (f"?{parts.query}" if parts.query else "")
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                site.seen.append(Seen(self.command, path, dict(self.headers.items())))
                status, headers, body = site.routes.get(
                    path, (404, {"Content-Type": "application/json"}, b'{"detail": "Not found."}')
                )
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = answer

            def log_message(self, format: str, *args: Any) -> None:
                """Quiet: pytest shows what the test asserts, not an access log."""

        self.server = ThreadingHTTPServer((self.host, 0), Handler)
        if self.tls is not None:
            self.server.socket = self.tls.wrap_socket(self.server.socket, server_side=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"{'https' if self.tls else 'http'}://{self.host}:{self.server.server_port}"

    def json(self, path: str, document: Any) -> None:
        self.routes[path] = (
            200,
            {"Content-Type": "application/json"},
            json.dumps(document).encode(),
        )

    def redirect(self, path: str, location: str, code: int = 302) -> None:
        self.routes[path] = (code, {"Location": location}, b"")

    def tokens(self) -> list[str | None]:
        """The Authorization header of every request received (None where there was none)."""
        return [seen.headers.get("Authorization") for seen in self.seen]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)


def self_signed_tls(folder: Path, host: str = "127.0.0.1") -> tuple[ssl.SSLContext, Path]:
    """A server context with a fresh certificate for ``host``, and the certificate's file
    (a client trusts it through ``SSL_CERT_FILE``)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(host))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "site.crt", folder / "site.key"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file, key_file)
    return context, cert_file
