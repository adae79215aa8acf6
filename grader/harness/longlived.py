"""Objects made once and kept for the whole run, out of the cyclic collector's way.

Importing torch, hypothesis and the harness, or decoding a recording, makes a few hundred
thousand objects that live as long as the process. Collecting while they are made costs about
a tenth of that time, and every later full collection walks them again, here and in every
process forked from here, writing to the pages a child shares with its parent:

    with long_lived():
        import torch

pauses the collector inside the block and freezes (``gc.freeze``) what exists at its end.
The root ``conftest.py`` (a student's run), the fork server and the grader's batch use it.

``freeze_at_exit()`` does the same for everything left when the interpreter exits: its last
collections would walk every object still alive (torch's compiler, imported by a run's first
dispatch mode, is most of them), about 0.35 s of a student's ``pytest`` after its summary.
"""

from __future__ import annotations

import atexit
import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def long_lived() -> Iterator[None]:
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


@contextmanager
def seen_by_the_collector() -> Iterator[None]:
    """Frozen objects back in the collector's sight for the block (``gc.get_referrers`` finds nothing
    frozen), frozen again after, where any were."""
    frozen = gc.get_freeze_count() > 0
    if frozen:
        gc.unfreeze()
    try:
        yield
    finally:
        if frozen:
            gc.freeze()


def freeze_at_exit() -> None:
    """Freeze what is alive at interpreter exit (atexit, not a pytest hook: a process that runs
    pytest many times must still collect between runs). Only cyclic garbage left then goes
    unfinalized, which exit never promised: atexit handlers and ``weakref.finalize`` still run."""
    atexit.register(gc.freeze)
