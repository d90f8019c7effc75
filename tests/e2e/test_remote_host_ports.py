"""The remote-worker test's relays can never share a number with a host port it probes.

``test_remote_worker.py`` asserts that, from inside the namespace, a host port no relay
reaches (a "stray" socket bound to port 0) refuses connections. When the relays' inside ports
were picked on the host (free at that moment, then released), the kernel could later give the
stray socket the very number a relay listened on, and the probe reached the relay: a failure
by chance. The relays now take fixed ports outside the host's ephemeral range.
"""

from __future__ import annotations

from tests.e2e.remote_host import ephemeral_range, inside_ports

SERVICES = ["postgres", "redis", "s3"]


def test_inside_ports_lie_outside_the_range_port_zero_binds_come_from():
    low, high = ephemeral_range()
    ports = inside_ports(SERVICES, [5432, low, high])
    assert sorted(ports) == sorted(SERVICES)
    assert len(set(ports.values())) == len(SERVICES)
    assert all(not low <= port <= high for port in ports.values())


def test_inside_ports_step_over_a_host_port_the_test_probes():
    first = inside_ports(SERVICES, [])
    taken = list(first.values())
    ports = inside_ports(SERVICES, taken)
    assert not set(ports.values()) & set(taken)
