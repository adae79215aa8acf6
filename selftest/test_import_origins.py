"""Staff check: a sandboxed worker imports only what was read or installed (grader.isolation.import_origins).

Code written at run time into a folder put on ``sys.path`` (a new module, or one that shadows a library
module not yet imported) is refused, naming the file; the submission's own modules, a flat submission's
siblings imported by bare name, the standard library and installed packages import as before. The
whole worker is tried in ``selftest/hostile/part01_imports_code_it_wrote.py`` (test_grader_attacks).
"""

from __future__ import annotations

import sys
import sysconfig

import pytest

from grader.harness.impl import Implementation
from grader.isolation.import_origins import OnlyReadCode

LIBRARIES = [path for path in sys.path if path.startswith(sysconfig.get_paths()["stdlib"]) or "-packages" in path]


@pytest.fixture
def guarded(tmp_path):
    """A package of its own and a folder of code written at run time, both on sys.path; the finder first on
    sys.meta_path, allowing the package and the libraries. Everything put back after."""
    package, written = tmp_path / "pkg_origins", tmp_path / "written"
    package.mkdir()
    written.mkdir()
    saved_path, saved_meta, saved_modules = list(sys.path), list(sys.meta_path), set(sys.modules)
    sys.path[:0] = [str(written)]
    finder = OnlyReadCode([str(package), *LIBRARIES])
    sys.meta_path.insert(0, finder)
    try:
        yield package, written
    finally:
        sys.path[:], sys.meta_path[:] = saved_path, saved_meta
        for name in set(sys.modules) - saved_modules:
            del sys.modules[name]


def test_code_written_at_run_time_is_refused_naming_its_file(guarded):
    _, written = guarded
    (written / "written_at_run_time_xyz.py").write_text("VALUE = 1\n")
    with pytest.raises(ModuleNotFoundError, match=r"written_at_run_time_xyz would be imported from .*written"):
        __import__("written_at_run_time_xyz")


def test_a_library_module_shadowed_at_run_time_is_refused(guarded):
    _, written = guarded
    name = next(n for n in ("tabnanny", "colorsys", "sndhdr", "this") if n not in sys.modules)
    (written / f"{name}.py").write_text("SHADOWED = True\n")
    with pytest.raises(ModuleNotFoundError, match=f"{name} would be imported from"):
        __import__(name)


def test_own_modules_siblings_and_libraries_import_as_before(guarded):
    package, _ = guarded
    (package / "helper_origins_xyz.py").write_text("VALUE = 3\n")
    (package / "strides.py").write_text("import helper_origins_xyz\nimport fractions\nVALUE = helper_origins_xyz.VALUE\n")
    impl = Implementation(package.name, package.parent)
    assert impl.module("strides").VALUE == 3  # a flat submission's bare import of a sibling
    assert impl.module("strides").fractions.Fraction(1, 2) == 0.5
    import einops.layers.torch  # noqa: F401 - an installed package's submodule
