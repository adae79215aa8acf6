"""The pytest plugin every graded run loads (from the root ``conftest.py``).

It decides which implementation is under test and where expected values come
from, gives tests the two doors as the ``impl`` and ``oracle`` fixtures, marks
tests by part, and turns the harness's faults into one short message each:

    [Part 1 · strides] test_view_strides
    not implemented: strides.view_strides

Options:
    --impl assignment|reference   which package of this folder is under test
    --submission DIR              a submission folder (assignment/ inside, or the files)
    --oracle live|recorded        expected values from the reference, or from recordings
    --record-to DIR               record cases and answers (handout builder)
    --isolate                     run the implementation in a sandboxed worker (staff)
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _pytest._code.code import TerminalRepr
from hypothesis import settings

from grader.harness import faults, oracle as oracle_mod, profiles
from grader.harness.door import Door, InProcessDoor
from grader.harness.impl import Implementation, stage_submission
from grader.harness.parts import PARTS, part_of_path, test_id

IMPL_KEY = pytest.StashKey[Door]()
ORACLE_KEY = pytest.StashKey[Door]()
RECORDER_KEY = pytest.StashKey["oracle_mod.Recorder"]()

REPORTED = (faults.Fault, faults.Mismatch, faults.StudentRaised)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("assignment", "which implementation is graded, and against what")
    group.addoption("--impl", choices=["assignment", "reference"], default="assignment",
                    help="package of this folder under test (default: assignment)")
    group.addoption("--submission", metavar="DIR", default=None,
                    help="grade a submission folder: an assignment/ package inside, or the module files")
    group.addoption("--oracle", choices=["live", "recorded", "replay"], default=None,
                    help="expected values from the reference (live), the handout's recordings "
                         "(recorded), or a grading batch's own recordings, live for the rest (replay); "
                         "default: live when reference/ exists")
    group.addoption("--recordings", metavar="DIR", default=None,
                    help="recordings to read (default: tests/recorded)")
    group.addoption("--record-to", metavar="DIR", default=None,
                    help="record every case and answer into DIR (builds the handout's recordings)")
    group.addoption("--record-examples", action="store_true", default=False,
                    help="with --record-to: also record whole examples (the grader's replay)")
    group.addoption("--isolate", action="store_true", default=False,
                    help="run the implementation in a sandboxed worker process (staff only)")
    group.addoption("--test-budget", type=float, default=120.0,
                    help="seconds of implementation time one test may use")


def pytest_configure(config: pytest.Config) -> None:
    for part in PARTS.values():
        config.addinivalue_line("markers", f"{part.marker}: Part {part.number}, {part.title}")
    config.addinivalue_line("markers", "hidden: graded, but not in the student handout")
    config.addinivalue_line("markers", "cuda: needs a CUDA device; measured on real kernels")
    config.addinivalue_line("markers", "graded: a test that carries points")

    profiles.register()
    if config.getoption("hypothesis_profile", default=None) is None:
        settings.load_profile(profiles.default_profile())


# --------------------------------------------------------------------------- doors
def _build_impl(config: pytest.Config) -> Door:
    root = config.rootpath
    submission = config.getoption("submission")
    if submission:
        staged = stage_submission(Path(submission))
        impl = Implementation("assignment", staged)
        label = f"submission {submission}"
    elif config.getoption("impl") == "reference":
        if not (root / "reference" / "__init__.py").exists():
            raise pytest.UsageError("--impl reference: there is no reference/ here (this is the student handout)")
        impl, label = Implementation("reference", root), "reference"
    else:
        impl, label = Implementation("assignment", root), "assignment"
    budget = config.getoption("test_budget")
    if config.getoption("isolate"):
        try:
            from grader.isolation.door import WorkerDoor
        except ImportError:
            raise pytest.UsageError("--isolate needs the staff grader (grader/isolation)") from None
        return WorkerDoor.from_context(impl.package_dir, label=label, test_budget=budget)
    return InProcessDoor(impl, label=label, test_budget=budget)


def _build_oracle(config: pytest.Config) -> Door:
    root = config.rootpath
    has_reference = (root / "reference" / "__init__.py").exists()
    mode = config.getoption("oracle") or ("live" if has_reference else "recorded")
    record_to = config.getoption("record_to")
    folder = Path(config.getoption("recordings") or root / "tests" / "recorded")
    if mode == "recorded":
        recordings = oracle_mod.Recordings.load_dir(folder)
        oracle_mod.set_mode("recorded", recordings=recordings)
        return oracle_mod.RecordedOracle(recordings)
    if not has_reference:
        raise pytest.UsageError(f"--oracle {mode} needs the reference/ package")
    reference = Implementation("reference", root)
    if mode == "replay":
        recordings = oracle_mod.Recordings.load_dir(folder)
        oracle_mod.set_mode("replay", recordings=recordings)
        return oracle_mod.ReplayOracle(reference, recordings)
    if record_to:
        recorder = oracle_mod.Recorder()
        config.stash[RECORDER_KEY] = recorder
        oracle_mod.set_mode("record", recorder=recorder)
        return oracle_mod.RecordingOracle(reference, recorder)
    oracle_mod.set_mode("live")
    return oracle_mod.LiveOracle(reference)


def _door(config: pytest.Config, key, build) -> Door:
    if key not in config.stash:
        config.stash[key] = build(config)
    return config.stash[key]


@pytest.fixture(scope="session")
def impl(pytestconfig: pytest.Config) -> Door:
    """The door to the implementation under test."""
    return _door(pytestconfig, IMPL_KEY, _build_impl)


@pytest.fixture(scope="session")
def oracle(pytestconfig: pytest.Config) -> Door:
    """The door to the expected answers (the reference, or its recordings)."""
    return _door(pytestconfig, ORACLE_KEY, _build_oracle)


def pytest_sessionstart(session: pytest.Session) -> None:
    # the oracle mode decides what ``cases`` draws, so settle it before any test runs
    _door(session.config, ORACLE_KEY, _build_oracle)


def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    for key in (IMPL_KEY, ORACLE_KEY):
        if key in config.stash:
            config.stash[key].close()
    record_to = config.getoption("record_to")
    if record_to and RECORDER_KEY in config.stash:
        config.stash[RECORDER_KEY].write(Path(record_to), group_of_case)
        if config.getoption("record_examples"):
            config.stash[RECORDER_KEY].write_examples(Path(record_to))


def group_of_case(key: str) -> str:
    """Recordings are filed by part: cases of ``test_part01_strides.py::...`` go to ``part01``."""
    part = part_of_path(key.split("::", 1)[0])
    return f"part{part.number:02d}" if part else "misc"


# --------------------------------------------------------------------------- collection
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    cuda = None
    for item in items:
        path = str(item.path)
        part = part_of_path(path)
        if part is not None:
            item.add_marker(getattr(pytest.mark, part.marker))
            item.add_marker(pytest.mark.graded)
        if "/tests/hidden/" in path.replace(os.sep, "/"):
            item.add_marker(pytest.mark.hidden)
        if item.get_closest_marker("cuda") is not None:
            if cuda is None:
                import torch

                cuda = torch.cuda.is_available()
            if not cuda:
                item.add_marker(pytest.mark.skip(reason="needs a CUDA device (run `pytest -m cuda` on a GPU machine)"))
            elif oracle_mod.MODE.kind == "recorded" and "oracle" in getattr(item, "fixturenames", ()):
                # recordings are made on a CPU: this comparison happens when the course grades on a GPU
                item.add_marker(pytest.mark.skip(reason="compares with the live reference: runs when your "
                                                        "submission is graded on a GPU"))


def pytest_runtest_setup(item: pytest.Item) -> None:
    oracle_mod.MODE.test = test_id(item.nodeid)
    for key in (IMPL_KEY, ORACLE_KEY):
        if key in item.config.stash:
            item.config.stash[key].begin_test(item.nodeid)


# --------------------------------------------------------------------------- reporting
class ShortRepr(TerminalRepr):
    """A failure as a few plain lines instead of a traceback."""

    class _Crash:
        def __init__(self, message: str) -> None:
            self.message = message

    def __init__(self, text: str, headline: str) -> None:
        self.text = text
        self.reprcrash = self._Crash(headline)

    def toterminal(self, tw) -> None:
        for line in self.text.splitlines():
            tw.line(line)


def _unwrap(exc: BaseException) -> tuple[BaseException, str]:
    """Our exception inside hypothesis's wrappers (flaky failures, exception groups)."""
    note = ""
    for _ in range(5):
        if isinstance(exc, REPORTED):
            return exc, note
        if isinstance(exc, BaseExceptionGroup) and exc.exceptions:
            if "Flaky" in type(exc).__name__:
                note = "(flaky: the same input gave different results on different runs)"
            exc = exc.exceptions[0]
            continue
        break
    return exc, note


def kind_of(exc: BaseException) -> str:
    if isinstance(exc, faults.Fault):
        return exc.kind
    if isinstance(exc, faults.StudentRaised):
        return "raised"
    if isinstance(exc, faults.Mismatch):
        return "wrong"
    return "error"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    if call.excinfo is None or not report.failed:
        return report
    exc, note = _unwrap(call.excinfo.value)
    if not isinstance(exc, REPORTED):
        report.user_properties.append(("failure_kind", "harness error"))
        return report
    part = part_of_path(str(item.path))
    header = f"[{part.label}] {item.name}" if part else item.name
    body = exc.describe()
    text = "\n".join(filter(None, [header, body, note]))
    headline = body.splitlines()[0]
    report.longrepr = ShortRepr(text, headline)
    # hypothesis's own section (a seed to reproduce) is noise next to the input we show
    report.sections = [(name, content) for name, content in report.sections if "Hypothesis" not in name]
    report.user_properties.append(("failure_kind", kind_of(exc)))
    report.user_properties.append(("message", text))
    return report
