"""Staff check: the places where a submission reads the machine it runs on are named for a human.

``grader/review.py`` flags, never scores: every spelling below reads the thread count, the process, the
environment or the call stack (how code tells it is graded), and each must be named with its place; the
reference and honest idioms beside them must be named nowhere.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from grader.harness.impl import Implementation
from grader.review import environment_reads

ROOT = Path(__file__).resolve().parent.parent


def reads(text: str, **others: str) -> tuple[str, ...]:
    return environment_reads({"model": textwrap.dedent(text), **{k: textwrap.dedent(v) for k, v in others.items()}})


def test_the_reference_reads_nothing_of_where_it_runs():
    assert environment_reads(Implementation("reference", ROOT).sources()) == ()


@pytest.mark.parametrize("text, named", [
    ("import torch\ndef f():\n    return torch.get_num_threads() == 1\n", "torch.get_num_threads: model.py:3"),
    ("from torch import get_num_threads as threads\ndef f():\n    return threads()\n",
     "from torch import get_num_threads: model.py:1"),
    ("import torch as t\nTHREADS = t.get_num_threads\n", "torch.get_num_threads: model.py:2"),
    ("import torch\ndef f():\n    return getattr(torch, 'get_num_threads')()\n", "'get_num_threads': model.py:3"),
    ("def f():\n    import os as o\n    return o.getpid() == 1\n", "os.getpid: model.py:3"),
    ("import os\nLIVE = 'CI' in os.environ\n", "os.environ: model.py:2"),
    ("import sys\ndef f():\n    return 'grader' in sys.modules\n", "sys.modules: model.py:3"),
    ("import inspect\ndef f():\n    return inspect.stack()\n", "inspect.stack: model.py:3"),
    ("def f():\n    return open('/proc/self/status').read()\n", "'/proc/self/status': model.py:2"),
    ("import socket\n", "import socket: model.py:1"),
    ("from ctypes import CDLL\n", "from ctypes import CDLL: model.py:1"),
    ("import importlib\nm = importlib.import_module('o' + 's')\n", "importlib.import_module: model.py:2"),
    # where the module lies or runs from: a worker imports it from /submission
    ("def f():\n    return __file__.startswith('/sub' + 'mission')\n", "__file__: model.py:2"),
    ("import torch\nWHERE = torch.__spec__.origin\n", ".__spec__: model.py:2"),
    ("import os\nHERE = os.getcwd()\n", "os.getcwd: model.py:2"),
    ("from pathlib import Path\nHOME = Path.home()\n", "pathlib.Path.home: model.py:2"),
    ("import tempfile\nT = tempfile.gettempdir()\n", "tempfile.gettempdir: model.py:2"),
    ("import torch\nINFO = torch.__config__.parallel_info()\n", "torch.__config__.parallel_info: model.py:2"),
    ("import os\nGRADED = os.path.exists('/submission/assignment')\n", "'/submission/assignment': model.py:2"),
    # what the machine holds: a worker's root has no home, no terminal, a few folders
    ("import os\nHOME = 'home' in os.listdir('/')\n", "os.listdir: model.py:2"),
    ("import os\nMAC = os.path.isdir('/Users')\n", "'/Users': model.py:2"),
    ("from pathlib import Path\nN = len(list(Path('/').iterdir()))\n", ".iterdir: model.py:2"),
    ("import sys\nTTY = sys.stdin.isatty()\n", ".isatty: model.py:2"),
    ("import os\nMINE = os.stat('.').st_uid == os.getuid()\n", ".st_uid: model.py:2"),
    ("import shutil\nFREE = shutil.disk_usage('.').free\n", "shutil.disk_usage: model.py:2"),
    ("import os\nCPUS = os.sysconf('SC_NPROCESSORS_ONLN')\n", "os.sysconf: model.py:2"),
    ("import sys\nVENV = sys.prefix\n", "sys.prefix: model.py:2"),
    ("import threading\nNAME = threading.current_thread().name\n", "threading.current_thread: model.py:2"),
    ("import sys\nDEPTH = sys.getrecursionlimit()\n", "sys.getrecursionlimit: model.py:2"),
    ("import os\nLEADER = os.getpgid(0) == 0\n", "os.getpgid: model.py:2"),
    ("import os\nHOME = os.path.isdir(os.sep + 'home')\n", "'home': model.py:2"),
    ("import os\nDEV = os.stat('.').st_dev\n", ".st_dev: model.py:2"),
])
def test_each_way_to_read_the_machine_is_named_with_its_place(text, named):
    assert named in reads(text), reads(text)


def test_a_name_taken_from_a_helper_module_is_named_where_it_is_read():
    found = reads("from ._env import torch\ndef f():\n    return torch.get_num_threads()\n",
                  _env="import torch\n")
    assert "torch.get_num_threads: model.py:3" in found, found


def test_places_are_grouped_by_name_and_sorted():
    found = reads("import torch\na = torch.get_num_threads()\n\n\n\n\n\n\n\n\nb = torch.get_num_threads()\n",
                  training="import torch\nc = torch.get_num_threads()\nimport os\nd = os.getpid()\n")
    assert found == ("os.getpid: training.py:4", "torch.get_num_threads: model.py:2, model.py:11, training.py:2"), found


def test_honest_idioms_beside_them_are_not_named():
    text = """
    import gc, inspect, logging, time
    import torch
    log = logging.getLogger(__name__)
    def f(x, modules="modules", stack=None):
        gc.collect()
        params = inspect.signature(f).parameters
        start = time.perf_counter()
        y = torch.stack([x, x]).sum(dim=0)
        log.info("took %s", time.perf_counter() - start)
        return y, params, "environ", "/tmp/scratch"
    """
    assert reads(text) == ()


def test_code_no_reading_can_walk_is_said_so_and_grading_goes_on():
    assert reads("def f(:\n") == ()  # a module that does not parse: the tests say so, no flag
    deep = "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n"
    found = reads(deep)
    assert found == () or found[0].startswith("not read"), found
