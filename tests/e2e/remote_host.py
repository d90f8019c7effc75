"""A worker host of its own on this machine: a network namespace, an S3 server, relays.

The remote-worker test (``test_remote_worker.py``) needs what a second machine would give: a
network from which only the broker, the database and the artifact store can be reached, and a
disk that holds nothing of the ladder host's. Here that is:

* :class:`S3Server`: moto's S3-compatible server, the artifact source (and the game logs'
  store), a process of its own on a free loopback port;
* :class:`NetworkNamespace`: a named namespace (``ip netns``) with only its loopback up, no
  other interface and no route; the test creates and deletes it;
* :class:`Relay`: one service made reachable inside it. A ``socat`` inside the namespace listens
  on its loopback and passes each connection through a unix socket in a private folder to a
  ``socat`` on the host that connects to the service. A path-named unix socket is a file, not a
  network address, so this is the namespace's only way out, and only to the services relayed.

The worker itself runs through :meth:`NetworkNamespace.launcher`: in the namespace, and in a
mount namespace of its own in which the given host folders are covered by empty tmpfs mounts.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.e2e.stack import wait_for

if TYPE_CHECKING:
    from collections.abc import Sequence

MOTO_SERVER = str(Path(sys.executable).with_name("moto_server"))
NAMESPACE_TOOLS = ("ip", "nsenter", "unshare")
# Run inside the namespace: can this loopback port be connected to? Prints "connected" or the
# error's class name (ConnectionRefusedError where nothing listens).
PROBE = """
import socket, sys
try:
    socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2).close()
    print("connected")
except OSError as exc:
    print(type(exc).__name__)
"""


def namespaces_unavailable() -> str | None:
    """Why this host cannot make network namespaces for a test, or None when it can."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    missing = [tool for tool in NAMESPACE_TOOLS if shutil.which(tool) is None]
    return f"missing {', '.join(missing)}" if missing else None


# The relays' ports inside the namespace. The namespace's loopback is empty, so any number is
# free there; these are fixed, below 1024 and so outside the host's ephemeral range
# (/proc/sys/net/ipv4/ip_local_port_range), from which every host port the test probes comes
# (the stray socket's, the test Redis', the S3 server's) -- and never PostgreSQL's 5432. A
# number picked on the host instead (free there, then released) could be handed to the stray
# socket later, and then the probe from inside reached a relay: a chance failure.
FIRST_INSIDE_PORT = 901


def inside_ports(services: Sequence[str], host_ports: Sequence[int]) -> dict[str, int]:
    """A relay port inside the namespace for each service, none of them a host port in use."""
    ports: dict[str, int] = {}
    candidate = FIRST_INSIDE_PORT
    for service in services:
        while candidate in host_ports:
            candidate += 1
        ports[service] = candidate
        candidate += 1
    return ports


def ephemeral_range() -> tuple[int, int]:
    """The host's range of ports handed out for port 0 binds."""
    low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
    return int(low), int(high)


def free_port() -> int:
    """A loopback port nothing listens on now (the kernel's pick)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _stop_session(proc: subprocess.Popen[bytes]) -> None:
    """End a process started in its own session, with every child it forked (socat's)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


class S3Server:
    """moto's S3 server on a free loopback port; any credentials are accepted."""

    ACCESS_KEY = "monsoon-test-access"
    SECRET_KEY = "monsoon-test-secret"
    REGION = "us-east-1"

    def __init__(self, log: Path) -> None:
        self.port = free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    def _answers(self) -> bool:
        try:
            with urllib.request.urlopen(self.endpoint, timeout=1):  # noqa: S310 (our loopback)
                return True
        except urllib.error.HTTPError:
            return True  # an S3 error document is an answer
        except OSError:
            return False

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [MOTO_SERVER, "-H", "127.0.0.1", "-p", str(self.port)],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_for(self._answers, 30, f"the S3 server on port {self.port}")

    def stop(self) -> None:
        if self.proc is not None:
            _stop_session(self.proc)
            self.proc = None

    def client(self) -> Any:
        import boto3

        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            aws_access_key_id=self.ACCESS_KEY,
            aws_secret_access_key=self.SECRET_KEY,
            region_name=self.REGION,
        )

    def keys(self, bucket: str) -> list[str]:
        listing = self.client().list_objects_v2(Bucket=bucket)
        return [item["Key"] for item in listing.get("Contents", [])]

    def storage(self, bucket: str, **options: object) -> dict[str, Any]:
        """A STORAGES entry for this process: django-storages' S3 backend on one bucket."""
        return {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": bucket,
                "endpoint_url": self.endpoint,
                "access_key": self.ACCESS_KEY,
                "secret_key": self.SECRET_KEY,
                "region_name": self.REGION,
                **options,
            },
        }


class NetworkNamespace:
    """A named network namespace with its loopback up and nothing else."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.path = f"/run/netns/{name}"

    def create(self) -> None:
        subprocess.run(["ip", "netns", "add", self.name], check=True)
        subprocess.run(["ip", "-n", self.name, "link", "set", "lo", "up"], check=True)

    def delete(self) -> None:
        subprocess.run(["ip", "netns", "delete", self.name], check=False)

    def inside(self, *argv: str) -> list[str]:
        """``argv`` run in this network namespace (and the host's mounts)."""
        return ["nsenter", f"--net={self.path}", *argv]

    def output(self, *argv: str) -> str:
        return subprocess.run(
            self.inside(*argv), check=True, capture_output=True, text=True, timeout=30
        ).stdout

    def interfaces(self) -> list[str]:
        return [line.split(":")[1].strip() for line in self.output("ip", "-o", "link").splitlines()]

    def routes(self) -> str:
        """The main routing table: empty means no address but loopback is reachable."""
        return self.output("ip", "route", "show", "table", "main").strip()

    def probe(self, port: int) -> str:
        """Connect to 127.0.0.1:``port`` from inside: "connected" or the error's name."""
        return self.output(sys.executable, "-c", PROBE, str(port)).strip()

    def launcher(self, hidden: Sequence[Path]) -> list[str]:
        """The argv prefix that runs a program in here, with ``hidden`` folders empty to it.

        A private mount namespace (``unshare --mount``) covers each folder with an empty tmpfs,
        so the program cannot read what the ladder host keeps there; the rest of the host's
        mounts (the code, /usr for the sandbox, the cgroup trees) stay as they are.
        """
        covers = " && ".join(
            f'mount -t tmpfs -o size=64k,mode=0755 monsoon-elsewhere "${i}"'
            for i in range(1, len(hidden) + 1)
        )
        script = f'{covers} && shift {len(hidden)} && exec "$@"'
        return self.inside(
            "unshare",
            "--mount",
            "--propagation",
            "private",
            "--",
            "sh",
            "-c",
            script,
            "sh",
            *map(str, hidden),
        )


class Relay:
    """One host service reachable on the namespace's 127.0.0.1:``inside_port``, nothing more."""

    def __init__(
        self,
        namespace: NetworkNamespace,
        folder: Path,
        name: str,
        *,
        target_port: int,
        inside_port: int,
    ) -> None:
        self.namespace, self.name = namespace, name
        self.target_port = target_port
        self.inside_port = inside_port
        self.socket = folder / f"{name}.sock"
        self.procs: list[subprocess.Popen[bytes]] = []

    def _socat(self, argv: list[str]) -> None:
        self.procs.append(
            subprocess.Popen(
                argv,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        )

    def start(self) -> None:
        self._socat(
            [
                "socat",
                f"UNIX-LISTEN:{self.socket},fork,mode=600",
                f"TCP:127.0.0.1:{self.target_port}",
            ]
        )
        wait_for(self.socket.exists, 10, f"the host end of the {self.name} relay")
        self._socat(
            self.namespace.inside(
                "socat",
                f"TCP-LISTEN:{self.inside_port},bind=127.0.0.1,fork,reuseaddr",
                f"UNIX-CONNECT:{self.socket}",
            )
        )
        wait_for(
            lambda: self.namespace.probe(self.inside_port) == "connected",
            10,
            f"the {self.name} relay inside the namespace",
        )

    def stop(self) -> None:
        for proc in self.procs:
            _stop_session(proc)
        self.procs.clear()


class RemoteHost:
    """The namespace and its relays, named by service; :meth:`close` removes everything."""

    def __init__(self, name: str) -> None:
        self.namespace = NetworkNamespace(name)
        self.folder = Path(tempfile.mkdtemp(prefix="monsoon-relays-"))  # 0700: root's only
        self.relays: dict[str, Relay] = {}

    def open(self, services: dict[str, int]) -> None:
        if shutil.which("socat") is None:
            pytest.fail("socat is not installed (scripts/ensure-services.sh installs it)")
        self.namespace.create()
        inside = inside_ports(list(services), list(services.values()))
        for name, port in services.items():
            relay = Relay(
                self.namespace, self.folder, name, target_port=port, inside_port=inside[name]
            )
            self.relays[name] = relay
            relay.start()

    def port(self, service: str) -> int:
        """Where ``service`` is reached from inside the namespace."""
        return self.relays[service].inside_port

    def close(self) -> None:
        for relay in self.relays.values():
            relay.stop()
        self.namespace.delete()
        shutil.rmtree(self.folder, ignore_errors=True)
