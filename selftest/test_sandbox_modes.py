"""Staff check: the grader boxes workers in when it is not root, and says so loudly when it cannot.

A grader that is not root (a staff laptop) is simulated with a user namespace in
which this user is uid 1000 (``unshare --user --map-user=1000``): it takes its
non-root path, and each of its workers must build a user namespace of its own,
seeing only the allow-list, with a world-readable copy of the staff files
elsewhere on the machine out of its sight. Then the kernel is made to refuse
namespaces (``user.max_user_namespaces`` set to 0 inside such a namespace, which
changes nothing outside it): the grader must still grade, and say loudly, in its
output and in ``batch.json``, that there was no sandbox.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from selftest.test_grader_attacks import (  # noqa: F401 - staff_copies is a fixture
    VIEW, leftovers, private_tmpdir, run_grader, staff_copies, submissions, written)

AS_USER = ("unshare", "--user", "--map-user=1000", "--map-group=1000")
# as uid 1000, first turn user namespaces off for this namespace, then drop the capabilities that allowed it
NO_NAMESPACES = (*AS_USER, "--keep-caps", "sh", "-c",
                 'echo 0 > /proc/sys/user/max_user_namespaces && exec setpriv --ambient-caps=-all '
                 '--inh-caps=-all --bounding-set=-all "$@"', "sh")


def _works(prefix: tuple[str, ...]) -> bool:
    if shutil.which("unshare") is None or shutil.which("setpriv") is None:
        return False
    try:
        return subprocess.run([*prefix, "true"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def passed(results: dict, student: str) -> set[str]:
    return {t["test"].split("::")[1] for t in results[student]["tests"] if t["part"] == 1 and t["status"] == "passed"}


@pytest.fixture(scope="module")
def not_root(tmp_path_factory, staff_copies):  # noqa: F811
    if not _works(AS_USER):
        pytest.skip("no unprivileged user namespaces here to run the grader as another user")
    base = tmp_path_factory.mktemp("not-root")
    base.chmod(0o755)
    subs = submissions(base / "subs", ["finds_staff_copy", "reads_reference", "memory_tree", "fills_tmp"])
    tmpdir = private_tmpdir(base)
    run = run_grader(subs, base / "out", tmpdir, "-j", "2", "--memory-mb", "1024", prefix=AS_USER)
    return {"results": written(base / "out"), "batch": json.loads((base / "out" / "batch.json").read_text()),
            "run": run, "tmpdir": tmpdir}


def test_not_root_each_worker_gets_a_user_namespace_of_its_own(not_root):
    notes = " ".join(not_root["results"]["honest"]["notes"])
    assert "isolation (user namespace)" in notes and "no capabilities" in notes, notes
    assert "allow-list" in notes and "no network" in notes
    assert "user namespaces of their own" in " ".join(not_root["batch"]["notes"])
    assert "WARNING" not in not_root["run"].stdout + not_root["run"].stderr


def test_not_root_no_worker_can_open_the_staff_files(not_root):
    results = not_root["results"]
    assert passed(results, "honest") == passed(results, "finds_staff_copy") | VIEW
    assert "staff copies found: []" in results["finds_staff_copy"]["output"]
    assert passed(results, "reads_reference") == passed(results, "honest") - VIEW


def test_not_root_a_worker_starts_no_process_and_scratch_is_private(not_root):
    results = not_root["results"]
    view = next(t for t in results["memory_tree"]["tests"] if t["test"].endswith("::test_view_strides"))
    assert "raised PermissionError" in view["message"], view  # its first child refused (seccomp)
    assert "'/var/tmp': 0" in results["fills_tmp"]["output"]
    assert leftovers(not_root["tmpdir"]) == []


def test_where_the_kernel_refuses_namespaces_the_grader_says_so_loudly(tmp_path):
    if not _works(NO_NAMESPACES):
        pytest.skip("cannot turn namespaces off in a user namespace here")
    tmp_path.chmod(0o755)
    subs = submissions(tmp_path / "subs", [])
    run = run_grader(subs, tmp_path / "out", private_tmpdir(tmp_path), "-j", "1", prefix=NO_NAMESPACES)
    assert "WARNING: NO SANDBOX" in run.stderr and "WARNING: NO SANDBOX" in run.stdout
    batch = json.loads((tmp_path / "out" / "batch.json").read_text())
    assert batch["notes"][0].startswith("WARNING: NO SANDBOX"), batch["notes"]
    honest = written(tmp_path / "out")["honest"]
    assert "isolation (none available)" in " ".join(honest["notes"]), honest["notes"]
    assert all(t["status"] == "passed" for t in honest["tests"] if t["part"] == 1)  # it still grades
    # and says so in results.json, where instructors read it (on Gradescope the rest is gone with the scratch)
    told = json.loads((tmp_path / "out" / "honest" / "results.json").read_text())["tests"]
    assert any(t["name"].startswith("For staff: this submission ran with less of its sandbox") and
               t["visibility"] == "hidden" for t in told), [t["name"] for t in told]
