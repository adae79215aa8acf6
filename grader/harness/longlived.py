"""Objects made once and kept for the whole run, out of the cyclic collector's way.

Importing torch, hypothesis and the harness, or decoding a recording, makes a few hundred
thousand objects that live as long as the process. Collecting while they are made costs about
a tenth of that time, and every later full collection walks them again, here and in every
process forked from here, writing to the pages a child shares with its parent:

    with long_lived():
        import torch

pauses the collector inside the block and freezes (``gc.freeze``) what exists at its end.
The root ``conftest.py`` (a student's run), the fork server and the grader's batch use it.
"""

from __future__ import annotations

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
