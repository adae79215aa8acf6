"""The pytest plugin every graded run loads (from the root ``conftest.py``).

It decides which implementation is under test and where expected values come
from, gives tests the two doors as the ``impl`` and ``oracle`` fixtures, marks
tests by part, replays recorded examples, and turns the harness's faults into
one short message each:

    [Part 1 (strides)] test_view_strides
    not implemented: strides.view_strides

Options:
    --impl assignment|reference   which package of this folder is under test
    --submission=DIR              a submission folder (assignment/ inside, or the files)
    --oracle live|replay          expected values from the reference, or from a recording
    --recording DIR               the recording to replay (default: tests/recorded)
    --record-to DIR               record every example and answer (the handout's and grader's recordings)
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from grader.harness import faults, hooks, profiles
from grader.harness.cases import CURRENT, Run, cases_of
from grader.harness.door import DEFAULT_SUBMISSION_BUDGET, DEFAULT_TEST_BUDGET, Door
from grader.harness.impl import Implementation, pinned_distributions, stage_submission
from grader.harness.oracle import LiveOracle, ReplayOracle
from grader.harness.parts import PARTS, part_of_path, test_id
from grader.harness.recording import Recorder, Recording, file_hashes, fingerprint
from grader.harness.source import strip_main_blocks
from grader.harness.tamper import imported_with, reaches
from grader.harness.transport import InProcess

RUN_KEY = pytest.StashKey[Run]()
IMPL_KEY = pytest.StashKey[Door]()
ORACLE_KEY = pytest.StashKey[Door]()
STAGED_KEY = pytest.StashKey[Path]()
CUDA_SKIPS_KEY = pytest.StashKey[list]()
REACHES_KEY = pytest.StashKey[tuple]()

REPORTED = (faults.Fault, faults.Mismatch, faults.StudentRaised)
NO_CUDA = "needs a CUDA device (run `pytest -m cuda` on a GPU machine)"


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hooks)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("assignment", "which implementation is graded, and against what")
    group.addoption("--impl", choices=["assignment", "reference"], default="assignment",
                    help="package of this folder under test (default: assignment)")
    group.addoption("--submission", metavar="DIR", default=None,
                    help="grade a submission folder: an assignment/ package inside, or the module files")
    group.addoption("--oracle", choices=["live", "replay"], default=None,
                    help="expected values from the reference (live) or from a recording (replay); "
                         "default: live where reference/ exists, else the handout's recording")
    group.addoption("--recording", metavar="DIR", default=None,
                    help="the recording to replay (default: tests/recorded)")
    group.addoption("--record-to", metavar="DIR", default=None,
                    help="record every example and answer into DIR (builds recordings)")
    group.addoption("--record-digests", action="store_true", default=False,
                    help="with --record-to: keep only digests of fixed-input answers (the handout's)")
    group.addoption("--test-budget", type=float, default=DEFAULT_TEST_BUDGET,
                    help="seconds of implementation time one test may use")
    group.addoption("--submission-budget", type=float, default=DEFAULT_SUBMISSION_BUDGET,
                    help="seconds of implementation time all the tests of a run may use together")
    group.addoption("--timeout-scale", type=float, default=1.0,
                    help="multiply every call's time limit")
    group.addoption("--no-reach-check", action="store_true", default=False,
                    help="staff self-tests only: run a submission whose source reaches into other code "
                         "(grader.harness.tamper), to test the sandbox against code that reading misses")


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config, parser: pytest.Parser, args: list[str]) -> None:
    """``--submission DIR`` (with a space): pytest takes DIR for a test path unless it knows the option
    before it looks for tests, so join the two here. This hook runs only where this folder's conftest
    is loaded, which a DIR outside it prevents (pytest then roots the run at DIR): the README writes
    ``--submission=DIR``, which works from anywhere."""
    for i, arg in enumerate(args[:-1]):
        if arg == "--submission" and not args[i + 1].startswith("-"):
            args[i: i + 2] = [f"--submission={args[i + 1]}"]
            break


def pytest_configure(config: pytest.Config) -> None:
    for part in PARTS.values():
        config.addinivalue_line("markers", f"{part.marker}: Part {part.number}, {part.title}")
    config.addinivalue_line("markers", "hidden: graded, but not in the student handout")
    config.addinivalue_line("markers", "cuda: needs a CUDA device; measured on real kernels")
    config.addinivalue_line("markers", "graded: a test that carries points")
    config.addinivalue_line("markers", "timed: measures wall-clock time; wants a machine with nothing else running")

    profiles.register()
    if config.getoption("hypothesis_profile", default=None) is None:
        settings.load_profile(profiles.default_profile())
    _check_submission_option(config)
    run = _make_run(config)
    config.stash[RUN_KEY] = run
    config.stash[CUDA_SKIPS_KEY] = []
    CURRENT.set(run)


def _check_submission_option(config: pytest.Config) -> None:
    """``--submission`` names a folder (with ``assignment/`` inside, or the module files): anything else is said
    once, as a usage error, not as a traceback in every test's setup."""
    given = config.getoption("submission", default=None)
    if not given or Path(given).is_dir():
        return
    path = Path(given)
    why = "no such folder" if not path.exists() else \
        "a zip: unzip it, and name the folder (python -m grader grade takes zips)" if path.suffix.lower() == ".zip" \
        else "a file: name the folder it is in" if path.is_file() else "not a folder"
    raise pytest.UsageError(f"--submission={given}: {why} (a folder with assignment/ inside, or the module files)")


def _has_reference(config: pytest.Config) -> bool:
    return (config.rootpath / "reference" / "__init__.py").exists()


def _make_run(config: pytest.Config) -> Run:
    mode = config.getoption("oracle") or ("live" if _has_reference(config) else "replay")
    if config.getoption("record_to"):
        if mode != "live" or not _has_reference(config):
            raise pytest.UsageError("--record-to records the live reference: it needs reference/ and --oracle live")
        return Run("record", recorder=Recorder(digests=config.getoption("record_digests")))
    if mode == "replay":
        folder = Path(config.getoption("recording") or config.rootpath / "tests" / "recorded")
        if not folder.is_dir():
            raise pytest.UsageError(f"no recording in {folder}")
        expect = fingerprint(config.rootpath) if _has_reference(config) else None
        try:
            return Run("replay", recording=Recording.load(folder, expect=expect, root=config.rootpath))
        except Exception as error:  # a stale or unreadable recording: say so, do not grade on it
            raise pytest.UsageError(str(error)) from None
    if not _has_reference(config):
        raise pytest.UsageError("--oracle live needs the reference/ package (this is the student handout)")
    return Run("live")


# --------------------------------------------------------------------------- doors
def _build_impl(config: pytest.Config) -> Door:
    root = config.rootpath
    submission = config.getoption("submission")
    if submission:
        staged = stage_submission(Path(submission))
        config.stash[STAGED_KEY] = staged
        impl, label = Implementation("assignment", staged), f"submission {submission}"
    elif config.getoption("impl") == "reference":
        if not _has_reference(config):
            raise pytest.UsageError("--impl reference: there is no reference/ here (this is the student handout)")
        impl, label = Implementation("reference", root), "reference"
    else:
        impl, label = Implementation("assignment", root), "assignment"
    transport = config.hook.pytest_assignment_transport(config=config, implementation=impl, label=label)
    door = Door(transport or InProcess(impl), label=label, test_budget=config.getoption("test_budget"),
                submission_budget=config.getoption("submission_budget"),
                timeout_scale=config.getoption("timeout_scale"), files=impl)
    run = config.stash[RUN_KEY]
    if run.recorder is not None:
        door.log = run.recorder.question  # what each test asks, for a replay to send ahead
    return door


def _build_oracle(config: pytest.Config) -> Door:
    run = config.stash[RUN_KEY]
    live = None
    if _has_reference(config):
        clean = config.hook.pytest_assignment_clean_transport(config=config)
        live = LiveOracle(Implementation("reference", config.rootpath), clean=clean, recorder=run.recorder)
    if run.mode == "replay":
        return ReplayOracle(run.recording, live)
    return live


def _door(config: pytest.Config, key, build) -> Door:
    if key not in config.stash:
        door = build(config)
        door.begin_test(config.stash[RUN_KEY].test)  # built during the first test's setup: it is that test's
        config.stash[key] = door
    return config.stash[key]


@pytest.fixture(scope="session")
def impl(pytestconfig: pytest.Config) -> Door:
    """The door to the implementation under test."""
    return _door(pytestconfig, IMPL_KEY, _build_impl)


@pytest.fixture(scope="session")
def oracle(pytestconfig: pytest.Config) -> Door:
    """The door to the expected answers (the reference and the judges, or a recording of them)."""
    return _door(pytestconfig, ORACLE_KEY, _build_oracle)


def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    for key in (IMPL_KEY, ORACLE_KEY):
        if key in config.stash:
            config.stash[key].close()
    if STAGED_KEY in config.stash:
        shutil.rmtree(config.stash[STAGED_KEY], ignore_errors=True)
    run = config.stash.get(RUN_KEY, None)
    record_to = config.getoption("record_to")
    if record_to and run is not None and run.recorder is not None and session.testsfailed == 0:
        from grader.harness.spec import stub_sources

        manifest = {"fingerprint": fingerprint(config.rootpath), "digests": run.recorder.digests,
                    "profile": config.getoption("hypothesis_profile", default=None) or profiles.default_profile(),
                    "seed": _int(config.getoption("hypothesis_seed", default=None)), "python": sys.version.split()[0],
                    "seconds": {test: round(s, 3) for test, s in sorted(run.recorder.seconds.items())},
                    # what grading installs, for the home import check (a student's copy of requirements.txt is theirs)
                    "requirements": pinned_distributions(config.rootpath / "requirements.txt")}
        if not run.recorder.digests:  # a staff recording names the files it was made from when it goes stale (the
            manifest["files"] = file_hashes(config.rootpath)  # handout's: nothing of the reference's files, not a hash)
        run.recorder.write(Path(record_to), manifest=manifest, stubs=stub_sources(config.rootpath))


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
                from grader.harness.devices import cuda_usable

                cuda = cuda_usable()
            if not cuda:
                item.add_marker(pytest.mark.skip(reason=NO_CUDA))
                config.stash[CUDA_SKIPS_KEY].append(item.nodeid)
            elif config.stash[RUN_KEY].mode == "replay" and not _has_reference(config):
                # recordings are made on a CPU: this comparison happens when the course grades on a GPU
                item.add_marker(pytest.mark.skip(reason="compares with the live reference and the harness's own "
                                                        "measurements: runs when your submission is graded on a GPU"))
    # hidden tests last: a worker sees their inputs, and nothing it says after them (a visible test's failure
    # message) can carry those inputs to the student before grades are published
    items.sort(key=lambda item: item.get_closest_marker("hidden") is not None)


def pytest_runtest_setup(item: pytest.Item) -> None:
    run = item.config.stash[RUN_KEY]
    run.test = test_id(item.nodeid)
    for key in (IMPL_KEY, ORACLE_KEY):
        if key in item.config.stash:
            item.config.stash[key].begin_test(run.test)


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function):
    """Replay: call the test body over its explicit and recorded examples, without hypothesis."""
    _refuse_reaching_in(pyfuncitem)
    run = pyfuncitem.config.stash[RUN_KEY]
    cases = cases_of(pyfuncitem.obj)
    if run.mode != "replay" or cases is None:
        return None
    if not run.recording.count(run.test):
        if not _has_reference(pyfuncitem.config):
            if pyfuncitem.get_closest_marker("cuda") is not None:  # (the handout's recording is made on a CPU)
                pytest.skip("no recorded examples for this cuda test in the handout: it runs when graded")
            # a test renamed, or tests/recorded/ from another handout: failed, not skipped, so no run reads green
            pytest.fail(f"{run.test}: no recorded examples for this test in tests/recorded/ (was the test renamed, "
                        "or tests/ changed?); restore tests/ as the handout gave it: the tests replay what it "
                        "recorded", pytrace=False)
        return None  # nothing recorded (a cuda test of a CPU recording): drawn live, against the live oracle
    fixtures = cases.fixtures(pyfuncitem.funcargs)
    impl = pyfuncitem.config.stash.get(IMPL_KEY, None)
    if impl is not None:  # what the recorded run asked, sent ahead: one round trip per chunk, not per call
        impl.prefetch_recorded(run.recording.questions_of(run.test, list(cases.examples)))
    for example in cases.replayed(run.recording, run.test):
        cases.body(**fixtures, **example)
    return True


def _refuse_reaching_in(item: pytest.Function) -> None:
    """A graded test fails before it asks anything where its part's module, or what runs with it, reaches
    into other code (read once, on this side, from the files: ``grader.harness.tamper``)."""
    door = item.config.stash.get(IMPL_KEY, None)
    part = part_of_path(str(item.path))
    if door is None or part is None or item.config.getoption("no_reach_check"):
        return
    if REACHES_KEY not in item.config.stash:
        # as graded: a `__main__` block (a self-check's pdb, doctest) is blanked when staged, and never runs when
        # imported; a plain run at home reads the files as they are, block and all
        sources = {name: strip_main_blocks(text) for name, text in door.sources().items()}
        item.config.stash[REACHES_KEY] = (sources, reaches(sources))
    sources, found = item.config.stash[REACHES_KEY]
    if found:
        runs_with = imported_with(sources, part.module)
        places = [f"{r.where} {r.what}" for r in found if r.module in runs_with]
        if places:
            raise faults.ReachesInFault(places)


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    # only those the run reached: `-m part1` deselects the cuda tests after they were marked skipped
    marked = set(config.stash.get(CUDA_SKIPS_KEY, []))
    skipped = [report for report in terminalreporter.stats.get("skipped", []) if report.nodeid in marked]
    if skipped:
        terminalreporter.write_line(f"{len(skipped)} cuda test(s) skipped: {NO_CUDA}")
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED and not terminalreporter.stats.get("deselected"):
        hint = where_the_tests_are(config)
        if hint:
            terminalreporter.write_line(hint)


def where_the_tests_are(config: pytest.Config) -> str | None:
    """What to say when a run collected nothing where the tests were not looked for (pytest run inside
    ``assignment/``, or given a module of it): pytest says only "no tests ran", as if there were none."""
    tests, here = config.rootpath / "tests", config.invocation_params.dir
    if not tests.is_dir() or config.args_source == pytest.Config.ArgsSource.TESTPATHS:  # tests/ was looked in
        return None
    given = [arg.split("::")[0] for arg in config.args]  # the files and folders named, or the folder it ran in
    if any(_holds_tests((here / arg).resolve(), tests) for arg in given):  # a selection that matched nothing
        return None
    if here == config.rootpath:
        return (f"no tests in {' '.join(given)}: the tests are in tests{os.sep} (assignment{os.sep} holds your code). "
                "Run `pytest` naming no file, or name a test file: `pytest tests/test_part01_strides.py`")
    return (f"no tests here: the tests are in {os.path.relpath(tests, here)}{os.sep}. Run `pytest` (or `pytest -x`) "
            f"from {os.path.relpath(config.rootpath, here)}{os.sep}, the folder with README.md and tests{os.sep} in it")


def _holds_tests(path: Path, tests: Path) -> bool:
    """Whether ``path`` holds the tests or some of them (not ``tests/strategies/``, ``tests/recorded/``)."""
    if tests.is_relative_to(path):
        return True
    return path.is_relative_to(tests) and (path.name.startswith("test_") and path.suffix == ".py"
                                           or path.is_dir() and any(path.rglob("test_*.py")))


# --------------------------------------------------------------------------- reporting
class ShortRepr:
    """A failure as a few plain lines instead of a traceback (pytest takes any object with
    ``toterminal``; ``reprcrash.message`` is the one-line summary ``-rf`` and junitxml show)."""

    class _Crash:
        def __init__(self, message: str) -> None:
            self.message = message

    def __init__(self, text: str, headline: str) -> None:
        self.text = text
        self.reprcrash = self._Crash(headline)

    def toterminal(self, tw) -> None:
        for line in self.text.splitlines():
            tw.line(line)

    def __str__(self) -> str:
        return self.text


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
    run = item.config.stash[RUN_KEY]
    if call.when == "call" and run.recorder is not None:  # a test without drawn cases: its whole call
        run.recorder.seconds.setdefault(test_id(item.nodeid), call.duration)
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
    report.longrepr = ShortRepr(text, body.splitlines()[0])
    # hypothesis's own section (a seed to reproduce) is noise next to the input we show
    report.sections = [(name, content) for name, content in report.sections if "Hypothesis" not in name]
    report.user_properties.append(("failure_kind", kind_of(exc)))
    report.user_properties.append(("message", text))
    report.user_properties.append(("summary", "\n".join(filter(None, [header, exc.summary(), note]))))
    return report


def _int(value):
    """A seed as pytest hands it over (a string), as the number it is."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return value
