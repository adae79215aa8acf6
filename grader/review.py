"""What staff should read in a submission by hand: flags, never a score.

A graded function can tell it is being graded and behave only then: a worker is plainly a worker (one
thread, pid 1 of its own namespace, no network; README, "What no grader of running code closes"), and no
test can tell code that behaves everywhere from code that behaves only where it is watched. What such code
must do is read where it runs, and that read is in its source. This module lists every read of the machine,
the process or the interpreter's own state in a submission's modules (and every path literal into the
kernel's views of them), by name and place, for a human to look at; an honest submission reads none of
them (the reference reads none), and one that does may well be honest (``torch.get_num_threads()`` handed to
``torch.utils.benchmark.Timer``). Read from the staged files, in the grading process: nothing here runs
the submission's code.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict

from grader.harness.source import Module, names_read_anywhere

# where a call runs: threads, processes, the host, the interpreter, who called
ENVIRONMENT_NAMES = frozenset({
    "torch.get_num_threads", "torch.get_num_interop_threads", "torch.initial_seed", "torch.random.initial_seed",
    "os.getpid", "os.getppid", "os.getpgrp", "os.getsid", "os.getuid", "os.geteuid", "os.getgid", "os.getlogin",
    "os.environ", "os.environb", "os.getenv", "os.getenvb", "os.cpu_count", "os.process_cpu_count",
    "os.sched_getaffinity", "os.getloadavg", "os.uname", "os.times",
    "sys.argv", "sys.orig_argv", "sys.modules", "sys.executable", "sys._getframe", "sys.gettrace",
    "sys.getprofile", "sys.addaudithook",
    "multiprocessing.cpu_count", "multiprocessing.current_process", "multiprocessing.parent_process",
    "threading.active_count", "threading.enumerate",
    "inspect.stack", "inspect.currentframe", "inspect.getouterframes", "inspect.trace",
    "traceback.extract_stack", "traceback.walk_stack",
    "gc.get_objects", "gc.get_referrers", "gc.get_referents",
    "importlib.import_module", "importlib.util.find_spec", "builtins.__import__",
    # where it runs from: its folder (a worker's is /submission), the working folder, home, scratch
    "os.getcwd", "os.getcwdb", "os.path.expanduser", "os.path.abspath", "os.path.realpath", "pathlib.Path.cwd",
    "pathlib.Path.home", "pathlib.Path.resolve", "pathlib.Path.absolute", "tempfile.gettempdir",
    "tempfile.gettempdirb", "torch.__config__.parallel_info", "torch.__config__.show",
    "sys.prefix", "sys.base_prefix", "sys.exec_prefix", "sys.base_exec_prefix", "sys.path",
    # what the machine holds and who may touch it: a worker's root lists a few folders, no home, no terminal
    "os.listdir", "os.scandir", "os.walk", "os.fwalk", "glob.glob", "glob.iglob", "pathlib.Path.iterdir",
    "os.access", "os.statvfs", "shutil.disk_usage", "os.getgroups", "os.getresuid", "os.getresgid",
    "os.sysconf", "os.confstr", "os.get_terminal_size", "shutil.get_terminal_size", "os.isatty", "os.ttyname",
    "sys.getrecursionlimit", "threading.current_thread", "threading.main_thread", "threading.get_ident",
    "threading.get_native_id", "os.getpgid", "os.getpriority", "os.sched_getscheduler", "os.sep",
})
# attributes that read the same of an object in hand (``sys.stdin.isatty()``, ``os.stat(".").st_uid``,
# ``Path("/").iterdir()``)
WHERE_RUN_ATTRIBUTES = frozenset({"isatty", "st_uid", "st_gid", "st_dev", "st_ino", "st_nlink", "iterdir"})
# a module's own dunders that say where it was loaded from
WHERE_LOADED = frozenset({"__file__", "__spec__", "__loader__", "__path__", "__cached__"})
# modules whose every use reads the machine or reaches past Python: their import is the flag
ENVIRONMENT_MODULES = frozenset({"socket", "platform", "getpass", "pwd", "grp", "resource", "psutil", "ctypes",
                                 "cffi", "mmap"})
SPELLED = frozenset(name.rsplit(".", 1)[1] for name in ENVIRONMENT_NAMES) | {"__import__"}
# a name as text, for getattr: only the spellings no honest string is likely to be
SPELLED_AS_TEXT = frozenset(s for s in SPELLED if "_" in s or s.startswith("get"))
# paths into what the kernel and the grading image show of the machine
PLACES = ("/proc", "/sys/", "/dev/shm", "/autograder", "/.dockerenv", "/etc/", "/run/", "/submission", "/root",
          "/home/")
# and any other folder at the root but the scratch one (``"/"`` itself, ``"/Users"``, ``"/mnt/data"``): what a
# worker's root holds tells it apart from a student's machine
AT_THE_ROOT = re.compile(r"/|/(?!tmp(?:/|$))[A-Za-z][\w.-]*(?:/[\w.-]*)*")
# and such a folder's bare name, to be joined to the root by code (``os.sep + "home"``)
ROOT_FOLDERS = frozenset({"home", "Users", "submission", "autograder", "proc", ".dockerenv"})


def reads_environment(dotted: str) -> bool:
    return dotted in ENVIRONMENT_NAMES or dotted == "__import__"


def environment_reads(sources: dict[str, str]) -> tuple[str, ...]:
    """One line per name, module or place: ``torch.get_num_threads: model.py:23, training.py:51``, sorted.
    Code no reading can walk is said so, for a human to read all of it (a flag must never stop grading)."""
    try:
        return _environment_reads(sources)
    except (RecursionError, MemoryError, ValueError, TypeError) as exc:
        return (f"not read ({type(exc).__name__}): read the modules by hand",)


def _environment_reads(sources: dict[str, str]) -> tuple[str, ...]:
    where: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for place, name in names_read_anywhere(sources, reads_environment, SPELLED):
        file, line = place.rsplit(":", 1)
        where[name].append((file, int(line)))
    for module, text in sorted(sources.items()):
        try:
            tree = Module.parse(text, module).tree  # (parsed once: the readings' and names_read_anywhere's tree)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            for flag in _flags(node):
                where[flag].append((f"{module}.py", node.lineno))
    return tuple(f"{flag}: {', '.join(f'{file}:{line}' for file, line in sorted(set(places)))}"
                 for flag, places in sorted(where.items()))


def _flags(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [f"import {alias.name}" for alias in node.names
                if alias.name.split(".")[0] in ENVIRONMENT_MODULES or alias.name in ENVIRONMENT_NAMES]
    if isinstance(node, ast.ImportFrom) and node.module and not node.level:
        root = node.module.split(".")[0]
        return [f"from {node.module} import {alias.name}" for alias in node.names
                if root in ENVIRONMENT_MODULES or f"{node.module}.{alias.name}" in ENVIRONMENT_NAMES]
    if isinstance(node, ast.Name) and node.id in WHERE_LOADED:
        return [node.id]
    if isinstance(node, ast.Attribute) and node.attr in WHERE_LOADED | WHERE_RUN_ATTRIBUTES:
        return [f".{node.attr}"]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value.strip()
        if text.startswith(PLACES) or text in SPELLED_AS_TEXT or text in ROOT_FOLDERS or AT_THE_ROOT.fullmatch(text):
            return [repr(text[:60])]
    return []
