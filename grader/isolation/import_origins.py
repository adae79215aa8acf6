"""A worker imports only code that was read or installed: the submission's staged modules, the
Python installation's libraries and the harness.

The readings of a submission's source (``grader.harness.tamper``, the parts' own) read its modules
and nothing else. Its code may still write a ``.py`` file into its private ``/tmp`` at run time, put
that folder on ``sys.path`` (allowed: honest code does, for ``import helpers``) and import it, or
shadow a library module not yet imported: code never read, free to do what the readings refuse
(replace a library's function before a probe calls it, find the harness's objects). This finder,
first on ``sys.meta_path`` from before the submission's first import, asks the finders after it
where a module would come from and refuses, with a message that says why, any file outside the
folders it was given. (What would load a file without an import statement, ``importlib``'s loaders,
``imp``, ``zipimport``, ``pkgutil``, ``site``, is refused by the reading; ``sys.meta_path`` itself
too; and the worker's ``/tmp`` and ``/dev/shm`` are mounted ``noexec``, so no library written at
run time can be mapped either.)
"""

from __future__ import annotations

import os
import sys
from typing import Any, Iterable


class OnlyReadCode:
    """A meta path finder that refuses modules found outside ``roots``."""

    def __init__(self, roots: Iterable[str]) -> None:
        self.roots = tuple(sorted({os.path.realpath(root).rstrip(os.sep) + os.sep for root in roots if root}))

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        for finder in list(sys.meta_path):
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec = find(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        places = [spec.origin] if spec.has_location else list(spec.submodule_search_locations or ())
        for place in places:
            if not self.allowed(place):
                raise ModuleNotFoundError(
                    f"{fullname} would be imported from {place}, which is neither one of the submission's "
                    "modules nor an installed library: only the .py files of assignment/ are graded (and read), "
                    "so code written while it runs is not imported", name=fullname)
        return spec

    def allowed(self, place: Any) -> bool:
        if type(place) is not str:
            return False
        real = os.path.realpath(place)
        return any(real.startswith(root) for root in self.roots)


def install(roots: Iterable[str]) -> OnlyReadCode:
    """Put the finder first on ``sys.meta_path`` (before any code of the submission runs)."""
    finder = OnlyReadCode(roots)
    sys.meta_path.insert(0, finder)
    return finder
