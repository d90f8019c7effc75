"""Seat cgroups: when the host offers cgroup v2 memory/pids, and how limit hits are read."""

from __future__ import annotations

from pathlib import Path

from workers.cgroups import find_tree
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
    assert tree is not None, why
    assert (tmp_path / "cgroup.subtree_control").read_text() == "+memory +pids"
    assert (tree.base / "cgroup.subtree_control").read_text() == "+memory +pids"
    seat = tree.seat(Limits(memory_bytes=128 * MIB, processes=16))
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
