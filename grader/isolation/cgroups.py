"""Control groups: one per worker, so memory, processes and CPU are limited for its whole tree.

A resource limit (``setrlimit``) binds one process: a worker that spreads its memory over
threads and children, each under the limit, escapes it, and sixty busy children get sixty
shares of the CPUs. A control group counts everything a worker starts. The fork server
makes one group per worker, ``grader-<its pid>-<tag>-w<n>``, beside the group it runs in
itself (cgroup v1: one per controller, as here; v2: one, where the memory, pids and cpu
controllers can be enabled for it). Beside, not inside a group of the fork server's own:
for the CPU each worker then weighs what one process of the grader weighs, as it did as a
plain process, instead of all workers sharing one process's weight on a busy machine. The
worker joins its group first thing after it is forked, so every process it ever starts is
counted, and the fork server removes the group when the worker is gone (at its start, it
also removes the groups of fork servers that died without cleaning up). Where no group can
be made (not root and nothing delegated), ``Groups.bases`` is empty and the grader watches
the memory of each worker's process tree instead.

``join`` runs in the worker; everything else in the fork server, except ``MemoryWatch``,
which the grader reads from outside the worker to stop one that reached its memory limit,
and ``remove_all``, with which the grader cleans up after a fork server that was killed.
"""

from __future__ import annotations

import glob
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
    """The fork server's worker groups: ``bases`` maps each controller to the folder they are made in."""

    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.version = 0
        self.bases: dict[str, str] = {}
        mounts, own = _mounts(), _own()
        for version, find in ((1, self._bases_v1), (2, self._bases_v2)):
            bases = find(mounts, own)
            if bases and all(self._can_make(base) for base in set(bases.values())):
                self.version, self.bases = version, bases
                break
        for base in set(self.bases.values()):
            _remove_stale(base)

    @staticmethod
    def _bases_v1(mounts, own) -> dict[str, str]:
        bases = {}
        for controller in CONTROLLERS:
            mount = next((m for m, kind, options in mounts if kind == "cgroup" and controller in options), None)
            if mount is None or controller not in own:
                return {}  # all three or none: a half-limited worker is not worth the bookkeeping
            bases[controller] = os.path.join(mount, own[controller].lstrip("/"))
        return bases

    @staticmethod
    def _bases_v2(mounts, own) -> dict[str, str]:
        mount = next((m for m, kind, _ in mounts if kind == "cgroup2"), None)
        if mount is None:
            return {}
        # beside ourselves first; as root, else at the top (a group that holds processes cannot pass
        # its controllers on to groups in it: EBUSY)
        for base in dict.fromkeys([os.path.join(mount, own.get("", "/").lstrip("/")), mount]):
            try:
                if set(CONTROLLERS) <= set(_read(os.path.join(base, "cgroup.controllers")).split()):
                    _enable(base)
                    return {controller: base for controller in CONTROLLERS}
            except OSError:
                continue
        return {}

    def _can_make(self, base: str) -> bool:
        probe = os.path.join(base, f"{self.tag}-probe")
        try:
            os.mkdir(probe, 0o755)
        except OSError:
            return False
        return _rmdir(probe)

    def create(self, name: str, memory_mb: int, processes: int, cpus: float,
               within: str | None = None) -> dict[str, str]:
        """A group for one worker, with its limits; {} if it cannot be made. ``within``: the name of a
        group that holds it and its siblings (one submission's workers), made on first use with the
        same limits, so that all of them together get no more memory, CPU or processes than one."""
        if within is not None:
            parent = self.parent(within)
            if not all(os.path.isdir(path) for path in set(parent.values())):
                made = self.create(within, memory_mb, 2 * processes, cpus)  # its workers' threads add up
                if not made:
                    return {}
                try:
                    if self.version == 2:
                        _enable(made["memory"])
                    elif os.path.exists(made["memory"] + "/memory.use_hierarchy"):
                        _write(made["memory"] + "/memory.use_hierarchy", "1")  # children count towards it
                except OSError:
                    if self.version == 2 or _read(made["memory"] + "/memory.use_hierarchy").strip() != "1":
                        self.remove(made)
                        return {}
            dirs = {controller: os.path.join(path, name) for controller, path in parent.items()}
        else:
            dirs = {controller: os.path.join(base, f"{self.tag}-{name}") for controller, base in self.bases.items()}
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
                if os.path.exists(path + "/memory.swap.max"):  # no swapping past it (where swap is counted)
                    _write(path + "/memory.swap.max", "0")
                _write(path + "/memory.oom.group", "1")  # out of memory: the whole worker goes
                _write(path + "/pids.max", str(processes))
                _write(path + "/cpu.max", f"{max(1000, int(cpus * 100000))} 100000")
        except OSError:
            self.remove(dirs)
            return {}
        return dirs

    def parent(self, within: str) -> dict[str, str]:
        """The folders of the group named ``within`` (see ``create``)."""
        return {controller: os.path.join(base, f"{self.tag}-{within}") for controller, base in self.bases.items()}

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

    def remove(self, dirs: dict[str, str]) -> bool:
        """Remove a worker's group; False while its last processes are still dying. The group holding
        it (``create``'s ``within``) goes with its last worker."""
        removed = all([_rmdir(path) for path in set(dirs.values())])
        if removed:
            for path in set(dirs.values()):
                parent = os.path.dirname(path)
                if os.path.basename(parent).startswith(self.tag + "-") and not _entries(parent):
                    _rmdir(parent)
        return removed

    def prefixes(self) -> list[str]:
        """What names every group of this fork server: ``remove_all`` takes them."""
        return sorted({os.path.join(base, self.tag) for base in self.bases.values()})

    def close(self, timeout: float = 5.0) -> None:
        """Kill whatever is left in this fork server's groups, and remove them."""
        for prefix in self.prefixes():
            remove_all(prefix, timeout)


def available() -> int:
    """The cgroup version a fork server here would limit its workers with (0: none), found by trying."""
    return Groups(f"grader-{os.getpid()}-{os.urandom(3).hex()}").version


def remove_all(prefix: str, timeout: float = 5.0) -> None:
    """Kill everything in the groups named ``prefix-*`` and remove them (one fork server's, by its prefix),
    the groups inside each first."""
    deadline = time.monotonic() + timeout
    for group in glob.glob(glob.escape(prefix) + "-*"):
        for inner in [os.path.join(group, name) for name in _entries(group)] + [group]:
            while not _rmdir(inner) and time.monotonic() < deadline:
                Groups.kill({"": inner})
                time.sleep(0.05)


def _remove_stale(base: str) -> None:
    """Groups of fork servers that are gone (killed before they could clean up): grader-<pid>-<tag>-<name>."""
    for name in _entries(base):
        fields = name.split("-")
        if len(fields) >= 4 and fields[0] == "grader" and fields[1].isdigit() \
                and not os.path.exists(f"/proc/{fields[1]}"):
            remove_all(os.path.join(base, "-".join(fields[:3])), timeout=1.0)


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


class MemoryWatch:
    """Whether a worker's group has reached its memory limit, read from outside in one file.

    Reaching it is the offence, not only being killed for it: near its limit, a group without swap
    can spend minutes evicting and re-reading its own library pages before the kernel kills
    anything (seen here: 160 s), so the grader stops it as soon as its peak touches the limit."""

    SLACK = 8 * 2**20  # the kernel charges in batches: a peak this close to the limit reached it

    def __init__(self, memory_dir: str, holder: str | None = None) -> None:
        self.dir = memory_dir
        self.v2 = os.path.exists(os.path.join(memory_dir, "memory.events"))
        self._fd: int | None = None  # the one file it reads, kept open: it is read after every answer
        try:
            self.limit = 0 if self.v2 else int(_read(os.path.join(memory_dir, "memory.limit_in_bytes")))
        except (OSError, ValueError):
            self.limit = -1  # unreadable: never claim it was reached
        # the group of the submission's workers together: reaching its limit is the same offence
        self.holder = _HolderWatch(holder) if holder else None

    def reached(self) -> bool:
        if self.holder is not None and self.holder.reached():
            return True
        if self.limit < 0:
            return False
        try:
            if self._fd is None:
                name = "memory.events" if self.v2 else "memory.max_usage_in_bytes"
                self._fd = os.open(os.path.join(self.dir, name), os.O_RDONLY | os.O_CLOEXEC)
            text = os.pread(self._fd, 4096, 0).decode()
            if self.v2:  # "max": how often usage hit memory.max
                return _limit_hits(text) > 0
            return int(text) >= self.limit - self.SLACK
        except (OSError, ValueError):
            return False

    def close(self) -> None:
        if self.holder is not None:
            self.holder.close()
        _close(self._fd)
        self._fd = None


class _HolderWatch:
    """Whether the group holding a submission's workers has hit its limit since this worker started.

    That group outlives its workers, and its peak with them: a worker started after another was
    stopped for memory must not inherit the offence. So what is read is how often the limit was hit
    (v1 ``memory.failcnt``, v2 ``memory.events``), counted from the worker's start."""

    def __init__(self, memory_dir: str) -> None:
        self.v2 = os.path.exists(os.path.join(memory_dir, "memory.events"))
        self._fd: int | None = None
        try:
            self._fd = os.open(os.path.join(memory_dir, "memory.events" if self.v2 else "memory.failcnt"),
                               os.O_RDONLY | os.O_CLOEXEC)
            self.start = self._count()
        except (OSError, ValueError):
            self.start = None  # unreadable: never claim it was reached

    def _count(self) -> int:
        text = os.pread(self._fd, 4096, 0).decode()
        return _limit_hits(text) if self.v2 else int(text)

    def reached(self) -> bool:
        if self.start is None:
            return False
        try:
            return self._count() > self.start
        except (OSError, ValueError):
            return False

    def close(self) -> None:
        _close(self._fd)
        self._fd = None


def _limit_hits(events: str) -> int:
    """How often a v2 group hit its memory.max, or had a process killed for memory (``memory.events``)."""
    fields = dict(line.split() for line in events.splitlines())
    return int(fields.get("max", 0)) + int(fields.get("oom_kill", 0))


def _close(fd: int | None) -> None:
    if fd is not None:
        try:
            os.close(fd)
        except OSError:
            pass
