"""Writes a module at run time and imports it: code no reading ever saw (here it would answer right).

A module written into the worker's /tmp, on ``sys.path``, and a library module not yet imported
(``tabnanny``) shadowed there: the worker imports only the submission's staged files, the libraries
and the harness (``grader.isolation.import_origins``), so view_strides fails, and nothing else."""
TARGET = "strides"

import os
import sys
import tempfile

_reference_view_strides = view_strides  # noqa: F821 - the reference's, defined above this text

_WRITTEN = "def view_strides(shape, strides, new_shape):\n    return ANSWER(shape, strides, new_shape)\n"


def view_strides(shape, strides, new_shape):
    folder = tempfile.mkdtemp()
    for name in ("tabnanny", "_written_at_run_time"):
        with open(os.path.join(folder, f"{name}.py"), "w") as handle:
            handle.write(_WRITTEN)
    sys.path.insert(0, folder)
    import tabnanny  # not yet imported by anything in the worker: found first in the folder above
    import _written_at_run_time

    for module in (tabnanny, _written_at_run_time):
        module.ANSWER = _reference_view_strides
    return _written_at_run_time.view_strides(shape, strides, new_shape) \
        if tabnanny.view_strides(shape, strides, new_shape) is not None else None
