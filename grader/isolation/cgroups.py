"""Control groups: one per worker, so memory, processes and CPU are limited for its whole tree.

A resource limit (``setrlimit``) binds one process: a worker that spreads its memory over
threads and children, each under the limit, escapes it, and sixty busy children get sixty
shares of the CPUs. A control group counts everything a worker starts. The fork server
makes one group of its own under the group it runs in (cgroup v1: one per controller, as
here; v2: one, where the memory, pids and cpu controllers can be enabled for it) and one
per worker inside that; the worker joins its group first thing after it is forked, so every
process it ever starts is counted, and the fork server removes the group when the worker
is gone. Where no group can be made (not root and nothing delegated), ``Groups.parents`` is
empty and the grader watches the memory of each worker's process tree instead.

``join`` runs in the worker; everything else in the fork server, except ``oom_kills``,
which the grader reads from outside the worker to tell "out of memory" from a crash.
"""

from __future__ import annotations

import os
import signal
import time

CONTROLLERS = ("memory", "pids", "cpu")


def _read(path: str) -> str:
    with open(path) as handle:
        return handle.read()


def _write(path: str, text: str) -> None:
    with open(path, "w") as handle:
        handle.write(text)


def _mounts() -> list[tuple[str, str, set[str]]]:
    """(mount point, file system type, super options) of every mount."""
    found = []
    try:
        lines = _read("/proc/self/mountinfo").splitlines()
    except OSError:
        return found
    for line in lines:
        left, _, right = line.partition(" - ")
        fields, rest = left.split(), right.split()
        if len(fields) >= 5 and len(rest) >= 3:
            point = fields[4].replace("\\040", " ")
            found.append((point, rest[0], set(rest[2].split(","))))
    return found


def _own() -> dict[str, str]:
    """The group this process is in, per v1 controller ("" for the v2 hierarchy)."""
    own = {}
    try:
        lines = _read("/proc/self/cgroup").splitlines()
    except OSError:
        return own
    for line in lines:
        _, controllers, path = line.split(":", 2)
        for name in controllers.split(",") if controllers else [""]:
            own[name] = path
    return own


class Groups:
    """The fork server's groups: ``parents`` maps each controller to the folder worker groups go in."""

    def __init__(self, tag: str) -> None:
        self.version = 0
        self.parents: dict[str, str] = {}
        mounts, own = _mounts(), _own()
        for version, setup in ((1, self._setup_v1), (2, self._setup_v2)):
            self.parents = setup(tag, mounts, own)
            if self.parents:
                self.version = version
                return

    @staticmethod
    def _setup_v1(tag: str, mounts, own) -> dict[str, str]:
        parents: dict[str, str] = {}
        for controller in CONTROLLERS:
            mount = next((m for m, kind, options in mounts if kind == "cgroup" and controller in options), None)
            if mount is None or controller not in own:
                break
            base = os.path.join(mount, own[controller].lstrip("/"))
            _remove_stale(base)
            parent = os.path.join(base, tag)
            try:
                os.mkdir(parent, 0o755)
            except OSError:
                break
            parents[controller] = parent
        else:
            return parents
        for parent in parents.values():  # all three or none: a half-limited worker is not worth the bookkeeping
            _rmdir(parent)
        return {}

    @staticmethod
    def _setup_v2(tag: str, mounts, own) -> dict[str, str]:
        mount = next((m for m, kind, _ in mounts if kind == "cgroup2"), None)
        if mount is None:
            return {}
        # our own group first; as root, else the top (a group holding processes cannot delegate: EBUSY)
        for base in dict.fromkeys([os.path.join(mount, own.get("", "/").lstrip("/")), mount]):
            parent = os.path.join(base, tag)
            try:
                if not set(CONTROLLERS) <= set(_read(os.path.join(base, "cgroup.controllers")).split()):
                    continue
                _remove_stale(base)
                _enable(base)
                os.mkdir(parent, 0o755)
                _enable(parent)
                return {controller: parent for controller in CONTROLLERS}
            except OSError:
                _rmdir(parent)
        return {}

    def create(self, name: str, memory_mb: int, processes: int, cpus: float) -> dict[str, str]:
        """A group for one worker, with its limits; {} if it cannot be made."""
        dirs = {controller: os.path.join(parent, name) for controller, parent in self.parents.items()}
        try:
            for path in set(dirs.values()):
                os.mkdir(path, 0o755)
            if self.version == 1:
                _write(dirs["memory"] + "/memory.limit_in_bytes", str(memory_mb * 2**20))
                if os.path.exists(dirs["memory"] + "/memory.memsw.limit_in_bytes"):  # and no swapping past it
                    _write(dirs["memory"] + "/memory.memsw.limit_in_bytes", str(memory_mb * 2**20))
                _write(dirs["pids"] + "/pids.max", str(processes))
                period = int(_read(dirs["cpu"] + "/cpu.cfs_period_us"))
                _write(dirs["cpu"] + "/cpu.cfs_quota_us", str(max(1000, int(cpus * period))))
            else:
                path = dirs["memory"]
                _write(path + "/memory.max", str(memory_mb * 2**20))
                _write(path + "/memory.swap.max", "0")
                _write(path + "/memory.oom.group", "1")  # out of memory: the whole worker goes
                _write(path + "/pids.max", str(processes))
                _write(path + "/cpu.max", f"{max(1000, int(cpus * 100000))} 100000")
        except OSError:
            self.remove(dirs)
            return {}
        return dirs

    @staticmethod
    def members(dirs: dict[str, str]) -> set[int]:
        pids = set()
        for path in set(dirs.values()):
            try:
                pids |= {int(p) for p in _read(path + "/cgroup.procs").split()}
            except (OSError, ValueError):
                pass
        return pids

    @staticmethod
    def kill(dirs: dict[str, str]) -> None:
        """Every process of a worker's group, wherever it went (a double fork stays in the group)."""
        for pid in Groups.members(dirs):
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    @staticmethod
    def remove(dirs: dict[str, str]) -> bool:
        """Remove a worker's group; False while its last processes are still dying."""
        return all([_rmdir(path) for path in set(dirs.values())])

    def close(self, timeout: float = 5.0) -> None:
        """Remove the fork server's own groups, and any worker group left in them."""
        for parent in set(self.parents.values()):
            remove_tree(parent, timeout)
        self.parents = {}


def available() -> int:
    """The cgroup version a fork server here would limit its workers with (0: none), found by trying."""
    groups = Groups(f"grader-probe-{os.getpid()}-{os.urandom(3).hex()}")
    groups.close()
    return groups.version


def remove_tree(parent: str, timeout: float = 5.0) -> None:
    """Kill everything in one of a fork server's groups and remove it with the worker groups in it
    (the grader calls this too: a fork server that was killed cannot)."""
    deadline = time.monotonic() + timeout
    for child in [os.path.join(parent, e) for e in _entries(parent)]:
        while not _rmdir(child) and time.monotonic() < deadline:
            Groups.kill({"": child})
            time.sleep(0.05)
    _rmdir(parent)


def _remove_stale(base: str) -> None:
    """Groups of fork servers that are gone (killed before they could clean up: ``grader-<pid>-<tag>``)."""
    for name in _entries(base):
        fields = name.split("-")
        if len(fields) == 3 and fields[0] == "grader" and fields[1].isdigit() \
                and not os.path.exists(f"/proc/{fields[1]}"):
            remove_tree(os.path.join(base, name), timeout=1.0)


def _entries(parent: str) -> list[str]:
    try:
        return [e.name for e in os.scandir(parent) if e.is_dir()]
    except OSError:
        return []


def _enable(path: str) -> None:
    have = set(_read(os.path.join(path, "cgroup.subtree_control")).split())
    missing = [c for c in CONTROLLERS if c not in have]
    if missing:
        _write(os.path.join(path, "cgroup.subtree_control"), " ".join("+" + c for c in missing))


def _rmdir(path: str) -> bool:
    try:
        os.rmdir(path)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return True


def join(dirs: dict[str, str]) -> None:
    """Put this process (and so everything it will start) into its worker group."""
    for path in set(dirs.values()):
        _write(path + "/cgroup.procs", str(os.getpid()))


def oom_kills(memory_dir: str | None) -> int:
    """How many processes of a worker's group the kernel killed for memory (0 if none, or no group)."""
    if not memory_dir:
        return 0
    for name in ("memory.events", "memory.oom_control"):  # v2, v1
        try:
            for line in _read(os.path.join(memory_dir, name)).splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
        except (OSError, ValueError):
            continue
    return 0
