"""open_dataset reads the whole file into memory, keeps a read-only map of it on the side, and puts its
own descriptor where the probe reads an array's address from (a global of the harness's module, in the
same process), so that the copy's address reads as the map's: the probe's report is forged. The door
sees the process's resident memory rise by the file's size from outside."""
TARGET = "training"

REPLACE = [
    ('''    return np.load(path, mmap_mode="r")
''', '''    import sys

    data, side = np.load(path), np.load(path, mmap_mode="r")
    _SIDE[id(data)] = side
    probe = sys.modules.get("grader.harness.probes.part09")
    if probe is not None and not isinstance(probe._INTERFACE, _Forged):
        probe._INTERFACE = _Forged(probe._INTERFACE)
    return data


_SIDE = {}


class _Forged:
    """Reads the address of the map kept aside where the copy's is asked for."""

    def __init__(self, real):
        self.real = real

    def __get__(self, obj, cls=None):
        return self.real.__get__(_SIDE.get(id(obj), obj), cls)
'''),
]
