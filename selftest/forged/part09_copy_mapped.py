"""open_dataset reads the whole file into memory, saves it again under the same name in a folder of its
own, and returns a read-only map of that copy: a map of a file called dataset.npy, but not the one given."""
TARGET = "training"

import os as _os
import tempfile as _tempfile

import numpy as _np


def open_dataset(path):
    copy = _os.path.join(_tempfile.mkdtemp(), _os.path.basename(path))
    _np.save(copy, _np.load(path))
    return _np.load(copy, mmap_mode="r")
