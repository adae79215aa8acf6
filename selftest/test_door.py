"""The door's batching: questions sent ahead answer exactly as questions asked one at a time.

A grading replay sends each test's recorded questions ahead, a chunk per round
trip (``Door.prefetch``). That must change nothing a test sees: the same values,
the same faults, a stuck function still costing its time limit once, and no more
of the implementation's time than the test's budget.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from grader import mutants
from grader.harness import faults
from grader.harness.door import Door, question, question_from_key
from grader.harness.impl import Implementation
from grader.harness.lookahead import FIRST_CHUNK, WINDOW
from grader.harness.recording import Recorder, Recording
from grader.harness.spec import Constant, Function
from grader.harness.transport import InProcess
from selftest.steal import steal_faked

VIEW = Function("strides.view_strides")
SHAPES = [((2, 3), (3, 1), (3, 2)), ((2, 3), (1, 2), (6,)), ((4,), (1,), (2, 2)), ((2, 3), (3, 1), (7,))]

LOOPS = '''

def view_strides(shape, strides, new_shape):
    while True:
        pass
'''


def door_on(folder: Path, appended: str = "", **kwargs) -> Door:
    mutants.materialize_reference(folder)
    if appended:
        target = folder / "assignment" / "strides.py"
        target.write_text(target.read_text() + appended)
    impl = Implementation("assignment", folder)
    return Door(InProcess(impl), label="test", files=impl, **kwargs)


def outcome(door: Door, q) -> tuple:
    try:
        return ("value", door.ask(q))
    except faults.Fault as fault:
        return (type(fault).__name__, fault.headline())
    except faults.StudentRaised as raised:
        return ("raised", raised.describe())


class Concurrent(InProcess):
    """An in-process transport that lets the lookahead run in a thread (as a sandboxed worker does)."""

    concurrent = True


@pytest.mark.parametrize("background", [False, True])
def test_prefetched_answers_are_the_answers_asked_one_at_a_time(tmp_path, background):
    one, ahead = door_on(tmp_path / "one"), door_on(tmp_path / "ahead")
    if background:
        ahead.transport.__class__ = Concurrent
    questions = [question(VIEW, *args) for args in SHAPES] + [question(Constant("roofline.PEAK_FLOPS_PER_SEC"))]
    questions.append(question(VIEW, *SHAPES[0]))  # asked twice in the test: sent twice, answered twice
    ahead.prefetch(questions)
    assert [outcome(ahead, q) for q in questions] == [outcome(one, q) for q in questions]
    assert ahead.traffic.round_trips == 1 and ahead.traffic.questions == len(questions), \
        "every answer should have come from one chunk sent ahead"


def test_a_test_that_asks_out_of_order_still_gets_every_answer(tmp_path):
    """More questions than the window, asked last first: the one waited for is fetched anyway."""
    door = door_on(tmp_path / "reversed")
    door.transport.__class__ = Concurrent
    questions = [question(VIEW, (n,), (1,), (n,)) for n in range(1, 2 * WINDOW)]
    door.prefetch(questions)
    assert [door.ask(q) for q in reversed(questions)] == [(1,)] * len(questions)
    door.stop_prefetch()


def test_a_test_that_fails_early_wastes_at_most_the_first_chunk(tmp_path):
    door = door_on(tmp_path / "early")
    questions = [question(VIEW, (n,), (1,), (n,)) for n in range(1, 200)]
    door.prefetch(questions)
    outcome(door, questions[0])  # the test fails here, and asks nothing more
    door.begin_test("the next test")
    assert door.traffic.questions == FIRST_CHUNK


def test_a_function_that_loops_costs_its_limit_once_in_a_prefetched_chunk(tmp_path):
    door = door_on(tmp_path / "loops", LOOPS)
    slow = Function("strides.view_strides", timeout=0.5)
    questions = [question(slow, *args) for args in SHAPES]
    started = time.monotonic()
    door.prefetch(questions)
    took = time.monotonic() - started
    assert took < 2.5, f"{len(questions)} calls of a looping function took {took:.1f} s: its limit (0.5 s) once"
    seen = [outcome(door, q) for q in questions]
    assert seen[0][0] == "TimeoutFault" and "not run again" not in seen[0][1]
    assert all(kind == "TimeoutFault" and "not run again" in text for kind, text in seen[1:]), seen


SLOW = '''

import time as _time
_reference_view = view_strides


def view_strides(shape, strides, new_shape):
    _time.sleep(0.05)
    return _reference_view(shape, strides, new_shape)
'''


def test_prefetching_stops_once_the_test_budget_is_spent(tmp_path):
    door = door_on(tmp_path / "budget", SLOW, test_budget=0.1)
    questions = [question(VIEW, (n,), (1,), (n,)) for n in range(1, 40)]
    door.prefetch(questions)
    seen = [outcome(door, q) for q in questions]
    assert door.traffic.round_trips == 1, "a spent budget sends no further chunk"
    assert seen[-1][0] == "BudgetFault", seen[-1]


def test_a_chunk_stops_where_the_test_budget_is_spent(tmp_path):
    """Not at the chunk's end: a chunk of slow calls answered whole, each up to its limit, took minutes past
    the budget; the questions left are asked by the test, and refused."""
    door = door_on(tmp_path / "chunk", SLOW, test_budget=0.1)
    outcome(door, question(VIEW, (99,), (1,), (99,)))  # the first call's own costs (an import), not measured
    door.begin_test("chunk")
    before = door.traffic.implementation_seconds
    questions = [question(VIEW, (n,), (1,), (n,)) for n in range(1, FIRST_CHUNK + 1)]
    door.prefetch(questions)
    seen = [outcome(door, q) for q in questions]
    spent = door.traffic.implementation_seconds - before
    # three 0.05 s calls pass the budget; the whole chunk would take FIRST_CHUNK of them (0.4 s)
    assert spent < 0.1 + 2 * 0.05 + 0.1, f"the implementation ran {spent:.2f} s of a 0.1 s budget"
    assert seen[0][0] == "value" and seen[-1][0] == "BudgetFault", seen


def test_a_run_s_budget_spent_refuses_every_later_question_at_once(tmp_path):
    """Slow in every call, each test spending its own budget, a submission held a batch's slot to the limit on
    its whole grading and lost what it had earned: past the run's budget, later tests fail at once."""
    door = door_on(tmp_path / "run", SLOW, test_budget=10.0)
    asked = [question(VIEW, (n,), (1,), (n,)) for n in range(1, 5)]
    door.begin_test("warm-up")
    outcome(door, asked.pop())  # the first call's own costs (an import), then 0.075 s for the rest
    door.submission_budget = door.spent_in_run + 0.075
    for test, q in zip(("first", "second"), asked):
        door.begin_test(test)
        assert outcome(door, q)[0] == "value"  # 0.05 s in each test: the second starts under the budget
    door.begin_test("third")
    with pytest.raises(faults.BudgetFault) as refused:
        door.ask(asked[2])
    assert "for them all" in refused.value.detail, refused.value.detail


def test_a_recorded_question_is_rebuilt_exactly_from_its_key():
    for q in [question(VIEW, *SHAPES[0]), question(Constant("roofline.PEAK_FLOPS_PER_SEC"))]:
        rebuilt = question_from_key(q.key(), q.timeout)
        assert rebuilt is not None and rebuilt.key() == q.key() and rebuilt.subject == q.subject
    assert question_from_key('{"$t":["no.such_probe",{"$t":[]}]}') is None
    assert question_from_key("not json") is None


@pytest.mark.parametrize("digests", [False, True])
def test_questions_are_recorded_for_the_grader_and_never_for_the_handout(tmp_path, digests):
    recorder = Recorder(digests=digests)
    test = "test_x.py::test_y"
    for args in SHAPES[:2]:  # the bigger example first, as hypothesis may draw them
        recorder.example(test, {"case": args[::-1]})
        recorder.question(test, question(VIEW, *args).key(), 2.0)
    recorder.write(tmp_path, manifest={})
    asked = Recording.load(tmp_path).questions_of(test)
    # a replay runs the simplest (shortest) example first: its questions come first
    simplest_first = sorted(SHAPES[:2], key=lambda a: len(repr(a)))
    assert asked == ([] if digests else [(question(VIEW, *a).key(), 2.0) for a in simplest_first])


def test_a_prepared_recording_replays_the_same_values_and_never_shares_one(tmp_path):
    """A batch decodes its recording once, before forking (``Recording.prepare``): the values a
    replay takes must be the ones decoding as it goes gives, and each prepared object is handed out
    once, so a test that changes what it was given cannot change what the next asker gets."""
    import torch

    from grader.harness.door import prepare_questions

    recorder = Recorder(digests=False)
    test = "test_x.py::test_y"
    for args in SHAPES[:2]:
        recorder.example(test, {"case": torch.arange(len(args[2])), "shape": args[2]})
        q = question(VIEW, *args)
        recorder.question(test, q.key(), 2.0)
        recorder.answer(q.key(), {"status": "ok", "value": torch.ones(2)})
    recorder.write(tmp_path / "a", manifest={})
    recorder.write(tmp_path / "b", manifest={})
    plain, prepared = Recording.load(tmp_path / "a"), Recording.load(tmp_path / "b")
    prepared.prepare()
    prepare_questions(prepared.all_questions())
    key = question(VIEW, *SHAPES[0]).key()

    def same(x, y):
        if isinstance(x, torch.Tensor):
            return isinstance(y, torch.Tensor) and torch.equal(x, y)
        if isinstance(x, dict):
            return isinstance(y, dict) and x.keys() == y.keys() and all(same(x[k], y[k]) for k in x)
        return x == y

    examples = list(prepared.examples_of(test))
    assert len(examples) == 2 and all(same(a, b) for a, b in zip(examples, plain.examples_of(test)))
    first = prepared.answer(key)
    assert same(first, plain.answer(key))
    first["value"].add_(1)  # a test changing what it was given
    again = prepared.answer(key)
    assert again is not first and same(again, plain.answer(key))
    examples[0]["case"].add_(1)
    assert same(next(prepared.examples_of(test)), next(plain.examples_of(test)))
    assert [question_from_key(k, t).key() for k, t in prepared.questions_of(test)] == \
        [k for k, _ in plain.questions_of(test)]
    assert sorted(prepared.all_questions()) == sorted(plain.questions_of(test))  # one test: all of them


def test_the_door_sees_where_a_file_is_mapped_and_how(tmp_path):
    """``mappings`` (read from /proc, outside whatever runs the call) gives each mapping's address
    range as well as its permissions: Part 9 holds the returned array's bytes against them."""
    import os

    import numpy as np

    from grader.harness.transport import mappings

    np.save(tmp_path / "seen.npy", np.arange(5000, dtype=np.float32))
    opened = np.load(tmp_path / "seen.npy", mmap_mode="r")
    found = mappings(os.getpid(), "seen.npy")
    if found is None:
        pytest.skip("no /proc here")
    start = opened.__array_interface__["data"][0]
    assert [(m.perms[:2], m.start <= start and start + opened.nbytes <= m.end) for m in found] == [("r-", True)]
    copy = np.load(tmp_path / "seen.npy")  # read into memory: outside every mapping of the file
    start = copy.__array_interface__["data"][0]
    assert not any(m.start <= start < m.end for m in found)
    assert mappings(os.getpid(), "unseen.npy") == ()


def test_a_trace_is_waited_for_only_after_a_call_that_left_something_running(tmp_path, monkeypatch):
    """``PathWatch``: a folder made in the call is seen, and one made by a thread the call left running, a
    moment after it returned (the grace); a call that left nothing running is not waited for. The wait is
    read from the sleeps asked for, not from a clock: a busy machine (CI's two cores) stretches any call."""
    import os
    import threading

    from grader.harness import transport
    from grader.harness.transport import TRACE_GRACE, PathWatch

    graces, sleep = [], time.sleep
    monkeypatch.setattr(transport.time, "sleep", lambda s: (graces.append(s) if s == TRACE_GRACE else None, sleep(s))[1])
    made = tmp_path / "made"
    watch = PathWatch(str(made))
    os.mkdir(made)
    assert watch.made() is True
    assert graces == []  # nothing left running: no wait
    assert not made.exists()  # seen, then removed: a student's own runs leave no folders behind

    kept = tmp_path / "kept"
    watch = PathWatch(str(kept))
    os.mkdir(kept)
    (kept / "file").write_text("")
    assert watch.made() is True and kept.exists()  # only an empty folder is removed

    quiet = PathWatch(str(tmp_path / "never"))
    assert quiet.made() is False

    late = tmp_path / "late"
    watch = PathWatch(str(late))
    thread = threading.Thread(target=lambda: (time.sleep(TRACE_GRACE / 5), os.mkdir(late)))
    thread.start()  # the call returns with it running
    assert watch.made() is True
    thread.join()
    assert graces == [TRACE_GRACE]  # waited for, once
    assert watch.left_running is False  # over within the grace: it ran no longer than that


def test_a_thread_the_call_left_running_is_told_from_one_it_ended(tmp_path):
    """``PathWatch.left_running``: a thread started in the call and still running after the grace (a load left
    to go on in the background) reads True; one the call started and joined, False, as a call that started
    none does."""
    import threading

    from grader.harness.transport import TRACE_GRACE, PathWatch

    stop = threading.Event()
    watch = PathWatch(str(tmp_path / "never"))
    threading.Thread(target=stop.wait, daemon=True).start()
    try:
        assert watch.made() is False and watch.left_running is True
    finally:
        stop.set()
    joined = PathWatch(str(tmp_path / "never"))
    thread = threading.Thread(target=time.sleep, args=(TRACE_GRACE / 5,))
    thread.start()
    thread.join()
    assert joined.made() is False and joined.left_running is False
    quiet = PathWatch(str(tmp_path / "never"))
    assert quiet.made() is False and quiet.left_running is False


def test_a_watch_s_descriptor_serves_the_next_watch_and_nothing_it_saw_carries_over(tmp_path):
    """Closing an inotify descriptor costs the kernel about 10 ms, so a process reuses its own: the next
    watch, of another folder, gets the same descriptor and sees none of the names made under the last."""
    import os

    from grader.harness.transport import _created, _unwatch, _watch_folder

    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir(), second.mkdir()
    fd, wd = _watch_folder(str(first))
    os.mkdir(first / "x")
    os.rmdir(first / "x")
    _unwatch(fd, wd)  # its events never read
    again, wd2 = _watch_folder(str(second))
    assert again == fd and wd2 != wd
    assert not _created(again, wd2, "x")
    os.mkdir(second / "x")
    assert _created(again, wd2, "x")
    _unwatch(again, wd2)


def test_a_thread_s_own_waits_are_told_from_its_compute_and_the_machine_s():
    """``waited_since``: a sleep is waited; a busy loop is not, however busy the machine (a wait for the CPU
    is the kernel's, counted apart)."""
    from grader.harness.transport import thread_waits, waited_since

    before, began = thread_waits(None), time.perf_counter()
    if before is None:
        pytest.skip("this kernel keeps no schedstat")
    time.sleep(0.1)
    assert waited_since(None, before, time.perf_counter() - began) >= 0.08
    before, began = thread_waits(None), time.perf_counter()
    while time.perf_counter() - began < 0.1:
        pass
    assert waited_since(None, before, time.perf_counter() - began) < 0.03


@pytest.mark.parametrize("taken", ["all", "none"])
def test_a_thread_s_cpu_taken_by_its_host_is_the_machine_s_wait_not_the_thread_s(monkeypatch, taken):
    """Steal time: while a virtual machine's host runs something else, a thread on that CPU is neither on a
    CPU nor queued for one as its kernel counts, and would read as waiting by its own doing (a correct
    ``time_matmul`` once lost Part 5's timed test so). A sleep stands for the stolen spell, with /proc/stat's
    steal grown by as much on the thread's CPU: nothing waited. Steal on a CPU the thread never ran on is
    not its."""
    from grader.harness.transport import thread_waits, waited_since

    steal_faked(monkeypatch, taken)
    before, began = thread_waits(None), time.perf_counter()
    if before is None:
        pytest.skip("this kernel keeps no schedstat")
    time.sleep(0.1)
    waited = waited_since(None, before, time.perf_counter() - began)
    assert (waited < 0.03) if taken == "all" else (waited >= 0.08), waited


def test_only_a_stub_s_own_not_implemented_error_says_not_implemented():
    """A stub's ``raise NotImplementedError("memory.training_ledger")`` is work not done yet; torch's ("Module
    [Cruncher] is missing the required "forward" function") or a branch the student left for later is raised,
    and shown with its message and line."""
    from grader.harness.runner import _a_stub

    assert _a_stub(NotImplementedError("memory.MemoryLedger.total")) and _a_stub(NotImplementedError())
    assert not _a_stub(NotImplementedError('Module [Cruncher] is missing the required "forward" function'))
    assert not _a_stub(NotImplementedError("float8 formats are not supported yet"))


@pytest.mark.parametrize("forged", [
    {"status": "raised", "function": "seen (3, 4) (2, 5)", "exc_type": "Leak_3_4", "message": "(3, 4)", "where": "x"},
    # which of Python's exceptions it raised is the code's choice as well: one of forty, five bits of the example
    {"status": "raised", "function": "strides.view_strides", "exc_type": "ZeroDivisionError", "message": "",
     "where": "x"},
    {"status": "timeout", "function": "seen (3, 4)", "seconds": 34.25, "inputs": "(3, 4)", "where": "x"},
    {"status": "import_error", "function": "seen (3, 4)", "message": "SyntaxError: (3, 4)"},
    {"status": "not_implemented", "function": "seen (3, 4)"},
    {"status": "changed_argument", "function": "seen (3, 4)", "index": 0},
])
def test_a_summary_names_the_function_asked_never_the_process_s_word(tmp_path, forged):
    """What a Gradescope run shows while its examples are secret (``summary()``) names the function the test
    asked about and the kind of failure: nothing the answering process sent, which may carry the inputs it saw."""
    door = door_on(tmp_path)
    with pytest.raises((faults.Fault, faults.StudentRaised, faults.Mismatch)) as raised:
        door._value(question(VIEW, *SHAPES[0]), forged)
    said = raised.value.summary()
    head = said.splitlines()[0]  # (then, for a module that does not load, what the grader read in its file)
    assert head.startswith("strides.view_strides") or head.endswith(": strides.view_strides"), said
    if forged["status"] == "import_error":
        assert said.endswith("assignment/strides.py compiles: importing it failed as its top-level code ran")
    assert "(3, 4)" not in said and "Leak" not in said and "34" not in said and "Error" not in said, said
