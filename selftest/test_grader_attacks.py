"""Staff check: hostile submissions gain nothing, harm nobody, and the grader survives.

One real batch (``python -m grader grade``, isolation on, Part 1 only) grades
every submission of ``selftest/hostile/`` next to an honest one. Each hostile
submission is the reference with one attack appended to ``strides.py``, so all
its other Part 1 answers are right: a test that fails below failed because the
attack was stopped, and the tests it did not touch must still pass. Attacks on
the other submissions (a full temporary folder, a stalled fork server, busy
processes, leftovers) show in the honest submission's score and in what is left
on the machine afterwards. The batch runs with ``$TMPDIR`` a private (0700)
folder of its own, which must be empty again when the batch is done; a
world-readable copy of the staff files lies elsewhere on the machine.

``selftest/test_sandbox_modes.py`` grades some of these as a grader that is not
root, and where the kernel refuses namespaces.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from grader import mutants
from grader.isolation import cgroups

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = Path(__file__).with_name("hostile")
PART1 = ["test_contiguous_strides", "test_flat_index", "test_is_contiguous", "test_transpose",
         "test_slice_view", "test_view_strides", "test_chained_views"]
ROOT_MODE = os.geteuid() == 0
UID_BASE = 62_000  # this batch's own worker ids: other batches running meanwhile use others
VIEW = {"test_view_strides", "test_chained_views"}  # what an attack inside view_strides costs its author
CGROUPS = cgroups.available()


# --------------------------------------------------------------------------- running the grader
# calls' time limits, scaled: 5 s (10 s by default) keeps the hostile batch quick, and leaves the memory
# attack (six holders sharing one CPU reach the limit in 3-4 s under the suite's own load) time to be seen
TIMEOUT_SCALE = 0.5


def run_grader(subs: Path, out: Path, tmpdir: Path, *extra: str, prefix: tuple[str, ...] = (),
               timeout: int = 600) -> subprocess.CompletedProcess:
    """``python -m grader grade`` on Part 1, with ``$TMPDIR`` its own folder (``prefix``: run it under
    another command, e.g. in a user namespace). The source reading that refuses code reaching into other
    code (``grader.harness.tamper``) is off: the sandbox must hold against code that reading misses."""
    env = {**os.environ, "TMPDIR": str(tmpdir), "COURSE_LMS_TOKEN": "a credential of the grader's"}
    args = [*prefix, sys.executable, "-m", "grader", "grade", str(subs), "--out", str(out), "-m", "part1",
            "--seed", "7", "--timeout-scale", str(TIMEOUT_SCALE), "--quiet", "--no-reach-check", *extra]
    run = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    assert run.returncode == 0, run.stderr[-3000:]
    return run


def written(out: Path, name: str = "grading.json") -> dict[str, dict]:
    return {p.parent.name: json.loads(p.read_text()) for p in Path(out).glob(f"*/{name}")}


def submissions(folder: Path, names: list[str]) -> Path:
    """The honest reference and the named hostile submissions, as one batch folder."""
    for name in names:
        mutants.materialize(mutants.load(HOSTILE / f"part01_{name}.py"), folder / name)
    mutants.materialize_reference(folder / "honest")
    for path in [folder, *folder.rglob("*")]:  # whoever grades must read them (a user namespace, too)
        path.chmod(0o755 if path.is_dir() else 0o644)
    return folder


LINKED = ("linked_package", "linked_entry", "hard_linked")


def linked_submissions(subs: Path, elsewhere: Path, staff_copies: list[Path]) -> None:
    """Submissions that point at the staff's code instead of holding their own: an ``assignment``
    that links to ``reference/``, a batch entry that links to a folder of it, module files hard-linked
    to a copy of it. A grader that follows them (as root) copies the reference in."""
    (subs / "linked_package").mkdir()
    (subs / "linked_package" / "assignment").symlink_to(ROOT / "reference", target_is_directory=True)
    mutants.materialize_reference(elsewhere)
    (subs / "linked_entry").symlink_to(elsewhere, target_is_directory=True)
    (subs / "hard_linked" / "assignment").mkdir(parents=True)
    copy = staff_copies[-1] / "reference"
    for module in copy.glob("*.py"):
        try:
            os.link(module, subs / "hard_linked" / "assignment" / module.name)
        except OSError:  # another file system: nothing to link to from here
            shutil.copyfile(module, subs / "hard_linked" / "assignment" / module.name)


def leftovers(tmpdir: Path) -> list[str]:
    """What a batch left in its $TMPDIR (torch's compiler caches included: they go to the batch's scratch)."""
    return sorted(os.listdir(tmpdir))


def private_tmpdir(parent: Path) -> Path:
    folder = parent / "tmpdir"
    folder.mkdir(mode=0o700)
    return folder


@pytest.fixture(scope="session")
def staff_copies(tmp_path_factory):
    """World-readable copies of the staff files where a TA's clone or a backup might be."""
    token = f"course-copy-{os.getpid()}-{os.urandom(3).hex()}"  # each module that uses it gets its own
    places = [Path.home() / token, tmp_path_factory.mktemp("backup") / token]
    if os.access("/srv", os.W_OK):
        places.insert(0, Path("/srv") / token)
    for place in places:
        for name in ("reference", "tests"):
            shutil.copytree(ROOT / name, place / name, ignore=shutil.ignore_patterns("__pycache__"))
        for path in [place, *place.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
    yield places
    for place in places:
        shutil.rmtree(place, ignore_errors=True)


# --------------------------------------------------------------------------- what the machine holds
def worker_processes() -> set[int]:
    """Processes of this batch's worker user ids, as seen from here."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                uid = os.stat(f"/proc/{entry}").st_uid
            except OSError:
                continue
            if UID_BASE <= uid < UID_BASE + 64:
                found.add(int(entry))
    return found


def shared_memory() -> set[str]:
    """System V segments and /dev/shm files, as the host sees them."""
    try:
        segments = {" ".join(line.split()[:4]) for line in Path("/proc/sysvipc/shm").read_text().splitlines()[1:]}
    except OSError:
        segments = set()
    return segments | {f"/dev/shm/{name}" for name in os.listdir("/dev/shm")}


def cgroup_leftovers() -> list[str]:
    """Control groups a grader's fork server made, whose fork server is gone."""
    found = []
    for controller in ("memory", "pids", "cpu", "unified", ""):
        for own in {"/"} | {line.split(":", 2)[2] for line in Path("/proc/self/cgroup").read_text().splitlines()}:
            folder = Path("/sys/fs/cgroup") / controller / own.lstrip("/")
            for group in folder.glob("grader-*") if folder.is_dir() else []:
                pid = group.name.split("-")[1]
                if not pid.isdigit() or not Path(f"/proc/{pid}").exists():
                    found.append(str(group))
    return sorted(set(found))


def fifos(*folders: Path) -> list[str]:
    return [str(p) for folder in folders for p in folder.glob("grader-cuda-*") if stat.S_ISFIFO(p.lstat().st_mode)]


# --------------------------------------------------------------------------- the batch
@pytest.fixture(scope="module")
def graded(tmp_path_factory, staff_copies):
    base = tmp_path_factory.mktemp("attacks")
    names = sorted(p.stem.removeprefix("part01_") for p in HOSTILE.glob("part01_*.py"))
    subs = submissions(base / "subs", names)
    linked_submissions(subs, base / "elsewhere", staff_copies)
    tmpdir = private_tmpdir(base)
    before = {"workers": worker_processes(), "shm": shared_memory(), "fifos": fifos(Path("/tmp")),
              "cgroups": cgroup_leftovers()}
    run = run_grader(subs, base / "out", tmpdir, "-j", "2", "--worker-uid-base", str(UID_BASE), "--memory-mb", "1024")
    out = base / "out"
    return {"results": written(out), "gradescope": written(out, "results.json"), "out": out, "run": run,
            "batch": json.loads((out / "batch.json").read_text()), "tmpdir": tmpdir,
            "leftover": leftovers(tmpdir), "workers": worker_processes() - before["workers"],
            "shm": shared_memory() - before["shm"], "fifos": sorted(set(fifos(Path("/tmp"))) - set(before["fifos"])),
            "cgroups": sorted(set(cgroup_leftovers()) - set(before["cgroups"]))}


def outcome(graded, student: str, test: str) -> dict:
    for t in graded["results"][student]["tests"]:
        if t["test"].endswith("::" + test):
            return t
    raise KeyError(test)


def passed(graded, student: str) -> set[str]:
    return {t for t in PART1 if outcome(graded, student, t)["status"] == "passed"}


def output(graded, student: str) -> str:
    return graded["results"][student]["output"]


def test_the_batch_finished_and_wrote_everything(graded):
    students = {p.stem.removeprefix("part01_") for p in HOSTILE.glob("part01_*.py")} | {"honest", *LINKED}
    assert set(graded["results"]) == students
    assert set(graded["gradescope"]) == students
    assert (graded["out"] / "grades.csv").exists() and (graded["out"] / "report.html").exists()


def test_the_honest_submission_is_untouched(graded):
    assert passed(graded, "honest") == set(PART1), {t: outcome(graded, "honest", t)["message"][:300]
                                                   for t in set(PART1) - passed(graded, "honest")}
    assert graded["gradescope"]["honest"]["score"] == 12


@pytest.mark.parametrize("student, lost", [
    ("lying_eq", {"test_contiguous_strides", "test_view_strides", "test_transpose", "test_chained_views"}),
    ("reads_reference", VIEW),
    ("finds_staff_copy", VIEW),
    ("walks_stack", VIEW),
    ("patches_grader", VIEW),  # its patches land in its own worker, which the grader never trusts
    ("sys_exit_in_call", {"test_view_strides", "test_chained_views", "test_transpose"}),
    ("writes_results", VIEW),
    ("pickle_payload", {"test_contiguous_strides", "test_view_strides", "test_chained_views"}),
    ("infinite_loop", VIEW),
    ("slow_steps", VIEW),
    ("memory_bomb", VIEW),
    ("memory_tree", VIEW),
    ("fork_storm", VIEW),
    ("stdout_flood", VIEW),
    ("segfault", VIEW),
    ("fills_tmp", VIEW),
    ("shared_memory", VIEW),
    ("blocks_cuda_lock", VIEW),
    # its view_strides leaves the default dtype and grad mode changed for its caller: that function's bug;
    # what its import changes is put back and charged to no call
    ("global_state", VIEW),
    ("epoll_stall", set()),  # attacks the others only: it earns what it answered right
    ("cpu_hog", set()),  # its sixty busy processes are refused: its answers are right
    ("forges_note", set()),
    ("answer_bomb", VIEW),  # its forged answers are refused before they are read, and its worker stopped
    ("colliding_keys", VIEW),  # the same: refused at its first key
    ("keyring", set()),  # it answers right: what it could reach is in its output
    ("side_channels", set()),  # the same
    ("unprintable_text", VIEW),
    ("claims_harness_error", VIEW),
    ("imports_code_it_wrote", VIEW),  # refused: neither its staged files nor a library (import_origins)
])
def test_an_attack_earns_nothing_and_costs_only_what_it_touched(graded, student, lost):
    got = passed(graded, student)
    assert got == set(PART1) - lost, (student, sorted(got), {t: outcome(graded, student, t)["message"][:300]
                                                             for t in PART1 if t not in got})


@pytest.mark.parametrize("student", LINKED)
def test_links_to_the_staff_code_are_never_followed(graded, student):
    """As root the grader could read what a link points at: only the submission's own files are staged."""
    result = graded["gradescope"][student]
    assert result["score"] == 0, (student, result["score"])
    if student == "linked_entry":
        error = graded["results"][student]["error"]
        assert "symbolic link" in error, error


def test_threads_that_keep_spinning_stop_their_worker_not_the_batch(graded):
    """Threads spinning since the import slow every call, each under its limit: the worker is stopped once they
    have used BESIDE_CPU_LIMIT, and its later calls fail at once, saying why (not slowly, to the submission's
    time limit)."""
    lost = set(PART1) - passed(graded, "spinning_threads")
    said = {outcome(graded, "spinning_threads", t)["message"] for t in lost}
    assert lost and any("threads its code started used" in message for message in said), said


def test_an_answer_that_grows_when_read_is_refused_unread(graded):
    """Answers are read in the grading process, outside the worker's limits: a forged one whose tensors
    share their bytes, that holds a hundred thousand lists, or whose dict keys all hash alike, is refused
    at once, not decoded."""
    message = outcome(graded, "answer_bomb", "test_view_strides")["message"]
    assert "not well-formed" in message and ("already read" in message or "lists and dicts" in message), message
    assert graded["results"]["answer_bomb"]["seconds"] < 60
    message = outcome(graded, "colliding_keys", "test_view_strides")["message"]
    assert "not well-formed" in message and "dict key" in message, message
    assert graded["results"]["colliding_keys"]["seconds"] < 60


def test_no_keyring_and_no_namespace_of_its_own(graded):
    """Keyrings belong to a user id, not a namespace: a worker must not write or read them (a note for
    the next submission in its slot, or anyone with that id). Nor may it make namespaces of its own."""
    said = output(graded, "keyring")
    assert "kernel objects:" in said, said[:1000]
    assert "keyring written" not in said and "keyring read" not in said and "namespace made" not in said, said[:1000]


def test_lies_stay_behind(graded):
    """A tuple whose ``__eq__`` says yes to anything crosses as the plain tuple it holds (its claim left in its
    worker), and is compared as what it holds; a tensor subclass is no answer at all."""
    for test in ("test_contiguous_strides", "test_view_strides"):
        assert "wrong value" in outcome(graded, "lying_eq", test)["message"]
    assert "returned: ()" in outcome(graded, "lying_eq", "test_contiguous_strides")["message"]
    assert "wrong type" in outcome(graded, "lying_eq", "test_transpose")["message"]
    assert "tensor subclass" in outcome(graded, "lying_eq", "test_transpose")["message"]


def test_a_pickle_is_never_unpickled(graded):
    assert not Path("/tmp/pwned").exists()
    assert "wrong type" in outcome(graded, "pickle_payload", "test_view_strides")["message"]


def test_faults_are_named_plainly(graded):
    assert outcome(graded, "infinite_loop", "test_view_strides")["kind"] == "timed out"
    looped = outcome(graded, "infinite_loop", "test_view_strides")["message"]
    assert f"timed out after {10 * TIMEOUT_SCALE:g} s in strides.view_strides" in looped
    assert "SIGSEGV" in outcome(graded, "segfault", "test_view_strides")["message"]
    assert "more than 32 MB of output" in outcome(graded, "stdout_flood", "test_view_strides")["message"]
    assert "crashed" in outcome(graded, "sys_exit_in_call", "test_transpose")["kind"]
    assert "sys.exit" in outcome(graded, "sys_exit_in_call", "test_view_strides")["message"]


def test_a_submission_that_dies_at_import_scores_zero_with_the_reason(graded):
    assert passed(graded, "exits_at_import") == set()
    message = outcome(graded, "exits_at_import", "test_flat_index")["message"]
    assert "while importing the submission" in message


def test_a_module_that_dies_at_import_costs_its_own_part_only(tmp_path):
    """Part 9's checkpoint is read in a process of its own (``separate``), which imports training.py and what it
    imports, as the process of every other question does: flops.py leaving the process when imported fails
    Part 4, not Part 9's checkpoint tests too."""
    subs = tmp_path / "subs"
    mutants.materialize_reference(subs / "exits_in_flops")
    flops = subs / "exits_in_flops" / "assignment" / "flops.py"
    flops.write_text(flops.read_text() + "\nimport os\n\nos._exit(0)\n")
    for path in [subs, *subs.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    run_grader(subs, tmp_path / "out", private_tmpdir(tmp_path), "-m", "part4 or part9", "-j", "1")
    tests = written(tmp_path / "out")["exits_in_flops"]["tests"]
    assert {t["test"] for t in tests if t["part"] == 4 and t["status"] == "passed"} == set()
    lost = {t["test"]: t["message"][:300] for t in tests if t["part"] == 9 and t["status"] != "passed"}
    assert lost == {} and any(t["part"] == 9 for t in tests), lost
    # the import said with the module that ran it, and what that module imports (a roofline.py importing flops.py
    # read as roofline's own crash)
    said = next(t["message"] for t in tests if t["test"].endswith("test_count_matmul_flops_forward"))
    assert "while importing the submission (flops.py)" in said, said


def test_an_import_that_dies_names_the_modules_it_ran():
    """A roofline.py importing flops.py, which exits when imported, read as roofline's own crash: the message
    names the module the worker imported and the submission's modules it imports (read, never run), as the
    worker imports them: transitively, and the package's __init__.py where it holds code."""
    from grader.isolation.transport import imported_by

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "roofline.py").write_text("import torch\nfrom . import flops\nfrom .dtypes import FP4_E2M1\n"
                                            "from assignment.model import Cruncher\nimport roofline\n")
        (folder / "flops.py").write_text("from .helpers import tally\n")
        for name in ("dtypes", "model", "helpers", "strides"):
            (folder / f"{name}.py").write_text("x = 1\n")
        (folder / "__init__.py").write_text("")
        assert imported_by(folder, "roofline") == ["dtypes.py", "flops.py", "helpers.py", "model.py"]
        (folder / "__init__.py").write_text("import os\n")
        assert imported_by(folder, "roofline") == ["__init__.py", "dtypes.py", "flops.py", "helpers.py", "model.py"]


def test_results_files_cannot_be_forged(graded):
    forged = graded["gradescope"]["writes_results"]
    assert forged["tests"], "the grader's own results.json must stand"
    assert forged["score"] == 12 - 4 - 1  # view_strides (4) and chained_views (1) lost
    assert graded["gradescope"]["honest"]["score"] == 12


# --------------------------------------------------------------------------- issue 9's attacks
def test_no_staff_file_is_found_anywhere(graded, staff_copies):
    """A world-readable copy of the staff files elsewhere on the machine is not there for a worker."""
    assert "staff copies found: []" in output(graded, "finds_staff_copy"), output(graded, "finds_staff_copy")[:2000]
    assert all((place / "reference" / "strides.py").exists() for place in staff_copies)


def test_slow_small_steps_run_out_of_time(graded):
    """It ignores its alarm and trickles its answer a byte at a time: the deadline is absolute."""
    view = outcome(graded, "slow_steps", "test_view_strides")
    assert view["kind"] == "timed out", view
    assert graded["results"]["slow_steps"]["seconds"] < 60  # not the 90 s it asked for, twice


def test_memory_held_across_children_is_refused_at_the_first_child(graded):
    """A worker starts no process (seccomp): the memory, reads and CPU time the door watches from outside are
    the worker's own. (Memory held across threads is one limit: ``test_sandbox``.)"""
    view = outcome(graded, "memory_tree", "test_view_strides")
    assert "raised PermissionError" in view["message"], view


def test_scratch_space_is_private_size_limited_and_gone(graded):
    filled = output(graded, "fills_tmp")
    assert "'/tmp': " in filled and "'/var/tmp': 0" in filled, filled[:1000]
    megabytes = int(filled.split("'/tmp': ")[1].split(",")[0].split("}")[0])
    assert megabytes <= 256  # its own tmpfs, not the machine's temporary folder
    assert graded["leftover"] == [], graded["leftover"]  # the batch's $TMPDIR is empty again


def test_shared_memory_dies_with_the_worker(graded):
    assert "segments: [" in output(graded, "shared_memory")
    assert graded["shm"] == set(), graded["shm"]


def test_the_cuda_lock_is_out_of_reach(graded):
    said = output(graded, "blocks_cuda_lock")
    assert "batch folders seen: []" in said, said[:2000]
    assert graded["fifos"] == [] and fifos(graded["tmpdir"]) == []


def test_an_inherited_epoll_set_cannot_stall_the_fork_server(graded):
    assert "epoll sets joined: []" in output(graded, "epoll_stall")
    later = [s for s in graded["results"] if s > "epoll_stall" and s not in LINKED]  # those are refused
    assert later and all(not graded["results"][s]["error"] for s in later)
    assert graded["batch"]["seconds"] < 300


def test_the_grader_s_notes_are_the_grader_s(graded):
    """A submission that writes forged isolation statements to every descriptor it holds."""
    forged, honest = graded["results"]["forges_note"]["notes"], graded["results"]["honest"]["notes"]
    assert "<script>" in output(graded, "forges_note")  # it did try (its output is shown escaped)
    assert "<script>" not in json.dumps(forged) and "forged" not in json.dumps(forged)
    assert [n.split(":")[0] for n in forged] == [n.split(":")[0] for n in honest]


def test_code_that_reads_the_machine_is_named_for_staff_and_scores_as_before(graded):
    """Not a defence (the sandbox is): a flag for a human, read from the staged files by the grading process."""
    assert graded["results"]["honest"]["review"] == []
    review = graded["results"]["side_channels"]["review"]
    assert any(line.startswith("import socket: strides.py:") for line in review), review
    assert any(line.startswith("'/proc/self/maps': strides.py:") for line in review), review
    [entry] = [t for t in graded["gradescope"]["side_channels"]["tests"] if t["name"].startswith("For staff")]
    assert entry["visibility"] == "hidden" and entry["max_score"] == 0


def test_nothing_outlives_the_batch(graded):
    assert graded["workers"] == set(), graded["workers"]
    assert graded["cgroups"] == [], graded["cgroups"]


def test_the_batch_says_how_workers_were_boxed_in(graded):
    notes = " ".join(graded["batch"]["notes"])
    assert "allow-list of paths" in notes and "WARNING" not in notes
    honest = " ".join(graded["results"]["honest"]["notes"])
    assert "allow-list" in honest and "no network" in honest
    if ROOT_MODE:
        assert "unprivileged user" in honest and "cgroup" in honest


def test_no_signalling_through_shared_files_no_network_and_no_grader_environment(graded):
    """Every worker reads the same files: a lock, or a watch on one, would let two workers alive at once
    (a submission's two processes, or two submissions graded side by side) pass notes. Sockets of other
    families than AF_UNIX reach past the network namespace on some machines (AF_VSOCK). And the fork
    server's environment, which stays in every worker's memory, holds nothing of the grader's own."""
    said = output(graded, "side_channels")
    assert "side channels:" in said, said[:1000]
    line = said[said.index("side channels:"):].splitlines()[0]
    assert "allowed" not in line and "environment secret found" not in line, line


def test_text_from_a_submission_is_made_printable_before_anything_shows_it(graded):
    """A lone surrogate in an exception message would stop the report (and the CSV) from being written;
    terminal controls would run in a staff terminal reading the logs. Both come out escaped."""
    message = outcome(graded, "unprintable_text", "test_view_strides")["message"]
    assert "pwned" in message and "\\x1b" in message and "\ufffd" in message, message
    shown = message + output(graded, "unprintable_text") + (graded["out"] / "report.html").read_text()
    assert not any(c in shown for c in ("\x1b", "\x07", "\u202e", "\ud800")), [c for c in shown if ord(c) < 32][:5]
    logs = "".join(p.read_text(errors="replace") for p in (graded["out"] / ".logs").glob("*.log"))
    assert "\x1b" not in logs


def test_a_worker_cannot_make_its_failures_the_grader_s(graded):
    """Only the trusted side may call a failure the grader's: a worker's "harness_error" is its own claim,
    scored as the submission's failure, shown as what the worker said, and never flagged to the staff as
    a broken test."""
    for test in VIEW:
        failure = outcome(graded, "claims_harness_error", test)
        assert failure["kind"] == "failed in its process", failure
        assert "it said: INTERNAL GRADER FAILURE" in failure["message"], failure["message"]
    assert "a harness error for" not in (graded["out"] / "report.html").read_text()


def test_a_killed_batch_takes_its_grading_processes_along(tmp_path):
    """A batch killed outright (SIGKILL: no cleanup of its own, as an out-of-memory kill or a scheduler
    would) leaves no grading process grading on as root: each dies with the batch (PR_SET_PDEATHSIG)."""
    import signal
    import time

    sub = mutants.materialize_reference(tmp_path / "subs" / "stuck")
    (sub / "assignment" / "__init__.py").write_text("import time\ntime.sleep(600)\n")  # in process: it hangs
    batch = subprocess.Popen([sys.executable, "-m", "grader", "grade", str(tmp_path / "subs"), "--out",
                              str(tmp_path / "out"), "--no-isolate", "--live", "-j", "1", "--quiet"], cwd=ROOT,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline, children = time.monotonic() + 120, []
        while not children and time.monotonic() < deadline:
            time.sleep(0.2)
            children = _children(batch.pid)
    finally:
        batch.send_signal(signal.SIGKILL)
        batch.wait()
    assert children, "the batch started no grading process"
    deadline = time.monotonic() + 10
    while any(_running(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_running(pid) for pid in children)


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


def _running(pid: int) -> bool:
    try:
        return "\nState:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False


def test_a_grading_process_cannot_be_made_to_take_the_machine_s_memory():
    """A grading process reads what workers send outside their limits; whatever way is found next to make
    that reading allocate, its heap is bounded (``limit_heap``): past the headroom an allocation fails in
    that process, as a MemoryError, while the machine's memory is untouched."""
    code = ("import torch\nfrom grader.batch import limit_heap\nlimit_heap(256)\nkept = bytearray(64 << 20)\n"
            "tensor = torch.ones(8 << 20)\ntry:\n    bytearray(1 << 30)\nexcept MemoryError:\n    print('refused')\n"
            "try:\n    torch.empty(1 << 28)\nexcept (MemoryError, RuntimeError):\n    print('refused')\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.stdout.split() == ["refused", "refused"], run.stderr[-2000:]


def test_a_grading_process_cannot_be_made_to_spin_for_the_submission_s_whole_time_limit():
    """Past its CPU allowance (``limit_cpu``) the kernel stops a grading process that a submission made
    busy, where the submission's wall-clock limit (half an hour) would have let it hold a core."""
    code = "from grader.batch import limit_cpu\nlimit_cpu(1)\nwhile True:\n    pass\n"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == -signal.SIGXCPU, (run.returncode, run.stderr[-2000:])
