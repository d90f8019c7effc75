"""Seat cgroups: which backend a host offers (v2, v1, none), limits, verdicts and clean-up."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from workers import cgroups
from workers.cgroups import (
    CgroupTree,
    V1Tree,
    V2SeatCgroup,
    find_tree,
    seat_bounds_problem,
    sweep_stale,
)
from workers.launch import MIB, Limits

V2_MOUNT = "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"


def fake_hierarchy(root: Path, controllers: str) -> Path:
    """Files a cgroup2 mount shows (a real one creates the child's files by itself)."""
    (root / "cgroup.controllers").write_text(controllers + "\n")
    (root / "cgroup.subtree_control").write_text("\n")
    (root / "monsoon-sandbox").mkdir()
    (root / "monsoon-sandbox" / "cgroup.subtree_control").write_text("\n")
    return root


def test_no_cgroup2_mount_means_no_cgroups():
    tree, why = find_tree(mountinfo="", own_cgroup="0::/\n", delegated=None, is_root=True)
    assert tree is None and "no cgroup v2" in why


def test_a_non_root_group_needs_an_explicit_delegation():
    tree, why = find_tree(
        mountinfo=V2_MOUNT, own_cgroup="0::/user.slice/x\n", delegated=None, is_root=True
    )
    assert tree is None and "MONSOON_CGROUP_PARENT" in why


def test_missing_controllers_are_named(tmp_path):
    fake_hierarchy(tmp_path, "hugetlb")
    tree, why = find_tree(mountinfo="", own_cgroup="", delegated=str(tmp_path), is_root=True)
    assert tree is None
    assert "offers hugetlb, not memory and pids" in why


def test_a_usable_tree_enables_the_controllers_and_seats_carry_the_limits(tmp_path, monkeypatch):
    fake_hierarchy(tmp_path, "cpu memory pids")
    tree, why = find_tree(mountinfo="", own_cgroup="", delegated=str(tmp_path), is_root=True)
    assert isinstance(tree, CgroupTree), why
    assert (tmp_path / "cgroup.subtree_control").read_text() == "+memory +pids"
    assert (tree.base / "cgroup.subtree_control").read_text() == "+memory +pids"
    seat = tree.seat(Limits(memory_bytes=128 * MIB, processes=16))
    assert isinstance(seat, V2SeatCgroup)
    assert (seat.path / "memory.max").read_text() == str(128 * MIB)
    assert (seat.path / "pids.max").read_text() == "17"  # the seat's bwrap counts too
    assert seat.limit_hit() is None
    (seat.path / "pids.events").write_text("max 3\n")
    assert seat.limit_hit() == "process_limit"
    (seat.path / "memory.events").write_text("low 0\nhigh 0\nmax 9\noom 1\noom_kill 1\n")
    assert seat.limit_hit() == "memory_limit"
    real_rmdir = Path.rmdir

    def cgroupfs_rmdir(path: Path) -> None:  # on cgroupfs the interface files go with the dir
        for child in path.iterdir():
            child.unlink()
        real_rmdir(path)

    monkeypatch.setattr(Path, "rmdir", cgroupfs_rmdir)
    seat.remove()
    assert not seat.path.exists()
    assert seat.limit_hit() == "memory_limit"  # the verdict outlives the group


# --- cgroup v1 (hybrid hosts) ---------------------------------------------------------------

OWN_V1 = "9:name=systemd:/\n8:pids:/\n6:freezer:/\n4:memory:/box/worker\n0::/\n"


def v1_mountinfo(root: Path, controllers: tuple[str, ...] = ("memory", "pids", "freezer")) -> str:
    """mountinfo lines for v1 hierarchies under ``root`` (and a v2 one offering hugetlb)."""
    lines = []
    for number, controller in enumerate(controllers):
        (root / controller).mkdir()
        lines.append(
            f"{35 + number} 31 0:{32 + number} / {root / controller} rw,relatime - cgroup cgroup "
            f"rw,{controller}"
        )
    (root / "memory" / "box" / "worker").mkdir(parents=True, exist_ok=True)
    return "\n".join(lines) + "\n"


def test_a_hybrid_host_gets_seat_groups_below_the_workers_own_v1_groups(tmp_path):
    tree, why = find_tree(
        mountinfo=V2_MOUNT + v1_mountinfo(tmp_path), own_cgroup=OWN_V1, delegated=None, is_root=True
    )
    assert isinstance(tree, V1Tree), why
    assert tree.memory == tmp_path / "memory" / "box" / "worker" / "monsoon-sandbox"
    assert tree.pids == tmp_path / "pids" / "monsoon-sandbox"
    assert tree.freezer == tmp_path / "freezer" / "monsoon-sandbox"
    assert tree.can_freeze and why.startswith("cgroup v1")


def test_v1_seats_carry_the_limits_and_report_hits(tmp_path):
    tree, why = find_tree(
        mountinfo=v1_mountinfo(tmp_path), own_cgroup=OWN_V1, delegated=None, is_root=True
    )
    assert isinstance(tree, V1Tree), why
    seat = tree.seat(Limits(memory_bytes=128 * MIB, processes=16))
    assert (seat.memory / "memory.limit_in_bytes").read_text() == str(128 * MIB)
    assert (seat.pids / "pids.max").read_text() == "17"
    assert seat.freezer is not None and seat.memory.name == seat.pids.name == seat.freezer.name
    assert seat.limit_hit() is None
    (seat.pids / "pids.events").write_text("max 2\n")
    assert seat.limit_hit() == "process_limit"
    (seat.memory / "memory.oom_control").write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 1\n")
    assert seat.limit_hit() == "memory_limit"


def test_without_a_v1_pids_hierarchy_there_is_no_tree_and_both_reasons_are_given(tmp_path):
    tree, why = find_tree(
        mountinfo=v1_mountinfo(tmp_path, ("memory",)),
        own_cgroup=OWN_V1,
        delegated=None,
        is_root=True,
    )
    assert tree is None
    assert "no cgroup v2 hierarchy is mounted" in why
    assert "no cgroup v1 pids hierarchy is mounted" in why


def test_an_explicit_v2_delegation_is_not_replaced_by_v1(tmp_path):
    (tmp_path / "v2").mkdir()
    fake_hierarchy(tmp_path / "v2", "hugetlb")
    tree, why = find_tree(
        mountinfo=v1_mountinfo(tmp_path),
        own_cgroup=OWN_V1,
        delegated=str(tmp_path / "v2"),
        is_root=True,
    )
    assert tree is None and "offers hugetlb" in why


def test_seat_groups_of_dead_workers_are_swept(tmp_path):
    dead = tmp_path / "seat-999999999-5-0"  # above any pid_max
    old_style_dead = tmp_path / "seat-999999999-0"
    reused_pid = tmp_path / f"seat-{os.getpid()}-1-0"  # our pid, but not our start time
    alive = tmp_path / f"seat-{os.getpid()}-{cgroups.process_start(os.getpid())}-0"
    old_style_alive = tmp_path / f"seat-{os.getpid()}-0"
    other = tmp_path / "keep-frozen"
    for path in (dead, old_style_dead, reused_pid, alive, old_style_alive, other):
        path.mkdir()
    assert sorted(sweep_stale(tmp_path)) == sorted([dead, old_style_dead, reused_pid])
    assert alive.exists() and old_style_alive.exists() and other.exists()


def test_seat_group_names_say_which_process_owns_them():
    name = cgroups._new_name()
    assert name.startswith(f"seat-{os.getpid()}-{cgroups.process_start(os.getpid())}-")
    assert cgroups.owner_alive(name) is True
    assert cgroups.owner_alive("keep-frozen") is None


def test_seat_bounds_are_required_unless_the_development_override_is_set(monkeypatch):
    monkeypatch.setattr(cgroups, "_found", (None, "no cgroup v2 hierarchy is mounted"))
    monkeypatch.delenv(cgroups.ALLOW_UNBOUNDED_ENV, raising=False)
    problem = seat_bounds_problem()
    assert problem is not None
    assert "no cgroup v2 hierarchy is mounted" in problem
    assert "MONSOON_ALLOW_UNBOUNDED_SEATS=1" in problem
    monkeypatch.setenv(cgroups.ALLOW_UNBOUNDED_ENV, "1")
    assert seat_bounds_problem() is None


def test_the_worker_app_hands_the_cgroup_parent_setting_to_the_seat_lookup(monkeypatch, settings):
    """MONSOON_CGROUP_PARENT is a server setting; the kit's cgroups module gets it at start-up."""
    import workers
    from workers.apps import WorkersConfig

    looked_up: list[str | None] = []

    def fake_find_tree(**kwargs: object) -> tuple[None, str]:
        looked_up.append(kwargs["delegated"])  # type: ignore[arg-type]
        return None, "looked up"

    monkeypatch.setattr(cgroups, "find_tree", fake_find_tree)
    monkeypatch.setattr(cgroups, "_found", None)
    monkeypatch.setattr(cgroups, "_delegated_parent", "")
    settings.MONSOON_CGROUP_PARENT = "/sys/fs/cgroup/system.slice/monsoon-worker.service"
    WorkersConfig("workers", workers).ready()
    assert cgroups.cgroup_tree() == (None, "looked up")
    assert looked_up == ["/sys/fs/cgroup/system.slice/monsoon-worker.service"]
    cgroups.use_delegated_parent("")  # unset: the hierarchy's own root, looked up afresh
    cgroups.cgroup_tree()
    assert looked_up[-1] is None


REAL_TREE, REAL_WHY = cgroups.cgroup_tree()


@pytest.mark.host_variant
@pytest.mark.skipif(not isinstance(REAL_TREE, V1Tree), reason=f"not a v1 host: {REAL_WHY}")
def test_a_real_v1_seat_group_limits_freezes_and_goes_away():
    assert isinstance(REAL_TREE, V1Tree)
    seat = REAL_TREE.seat(Limits(memory_bytes=64 * MIB, processes=8))
    try:
        assert int((seat.memory / "memory.limit_in_bytes").read_text()) == 64 * MIB
        memsw = seat.memory / "memory.memsw.limit_in_bytes"
        if memsw.exists():  # swap accounting: swap is no way around the limit
            assert int(memsw.read_text()) == 64 * MIB
        assert (seat.pids / "pids.max").read_text().strip() == "9"
        if seat.freezer is not None:
            seat.freeze()
            assert (seat.freezer / "freezer.state").read_text().strip() == "FROZEN"
            seat.thaw()
            assert (seat.freezer / "freezer.state").read_text().strip() == "THAWED"
    finally:
        seat.remove()
    assert not any(path.exists() for path in seat.paths)
    assert seat.limit_hit() is None


def sleeper_in(seat: cgroups.SeatCgroup) -> subprocess.Popen[bytes]:
    """A process in ``seat``'s group, as a bot would be."""
    return subprocess.Popen(["sleep", "600"], preexec_fn=seat.join, start_new_session=True)


@pytest.mark.skipif(REAL_TREE is None, reason=f"no cgroups here: {REAL_WHY}")
def test_frozen_seats_of_a_dead_worker_are_thawed_killed_and_removed(monkeypatch):
    """A worker killed by SIGKILL left its frozen bwrap and bot in their cgroup for 80+ s."""
    assert REAL_TREE is not None
    live = REAL_TREE.seat(Limits(memory_bytes=64 * MIB, processes=8))
    monkeypatch.setattr(cgroups, "_new_name", lambda: f"seat-999999999-1-{os.getpid()}")
    orphan = REAL_TREE.seat(Limits(memory_bytes=64 * MIB, processes=8))
    stranded, ours = sleeper_in(orphan), sleeper_in(live)
    try:
        wait_until(lambda: orphan.members() == [stranded.pid], "the process to join its group")
        orphan.freeze()
        live.freeze()
        removed = sweep_stale(*REAL_TREE.bases)
        assert stranded.wait(timeout=60) == -signal.SIGKILL
        assert {path.name for path in removed} >= {f"seat-999999999-1-{os.getpid()}"}
        assert all(not (base / removed[0].name).exists() for base in REAL_TREE.bases)
        assert ours.poll() is None and live.members() == [ours.pid]  # its owner lives: untouched
    finally:
        for process in (stranded, ours):
            process.kill()
        live.remove()
        orphan.remove()
        for process in (stranded, ours):
            process.wait()


def wait_until(condition: Callable[[], object], what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.01)
