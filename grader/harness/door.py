"""The door: the one way a test reaches the code under test, or the oracle.

    impl.call(view_strides, (2, 3), (3, 1), (6,))        -> (1,)
    impl.run(checkpoint_file, 4, 2, 0)                    -> a CheckpointFile report
    impl.measure(time_matmul_call, 256, 256, 256, ...)    -> Measured(value, wall_seconds, cpu_seconds)

A door turns a question (a spec ``Function`` or ``Constant``, or a ``Probe``)
and plain arguments into a ``Request``, has its transport carry it (in this
process, or to a sandboxed worker), and turns the outcome back into a value or
a fault (``grader.harness.faults``). Arguments and answers always cross the wire
format, even in process, so a test sees exactly what it would see from an
isolated worker: fresh plain values that cannot lie. A probe's answer is rebuilt
into its declared report, strictly: a malformed one is the implementation's
fault. Only the call's wall and CPU time, and what a test asks the transport to
``Observe`` of the call from outside (how a file is mapped, how far resident
memory rose, the process held stopped, a path left behind), are the door's own
observation.

A function that runs out of time is remembered: a later call to it, or to
anything that calls it, fails at once with the same message instead of costing
its time limit again.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Generic, Iterable, TypeVar

from grader.harness import faults, wire
from grader.harness.impl import Implementation
from grader.harness.lookahead import Lookahead
from grader.harness.probe import Probe, ReportError, lookup
from grader.harness.show import printable, show_inputs
from grader.harness.spec import Constant, Function
from grader.harness.transport import (InProcess, Mapping, Observe, OnReply, Reply, Request, Session, Transport,
                                      process_for)

R = TypeVar("R")
DEFAULT_TEST_BUDGET = 120.0  # seconds of implementation time one test may use
# ... and all of a run's tests together: far below a batch's limit on a submission's whole grading (1800 s,
# where everything is lost), so that code slow in every call (each test spending its budget) is refused at
# once from here on and keeps what it earned before, instead of holding its slot to the limit and scoring 0
DEFAULT_SUBMISSION_BUDGET = 900.0


# --------------------------------------------------------------------------- questions
@dataclass(frozen=True)
class Question:
    """One question, ready to send: which probe, with what, about which function."""

    probe: Probe
    args: tuple  # as sent (a call sends the function's name first)
    shown: tuple  # the arguments a message shows
    subject: str
    params: tuple[str, ...]
    secret: Any = None
    timeout: float | None = None

    def inputs(self) -> str:
        shown = show_inputs(self.params, self.shown, {})
        left = self.params[len(self.shown):] if self.probe.name == "calls.call" else ()
        if left:  # a spec function called without its last arguments: say so, or the message hides them
            shown += f" ({', '.join(left)}: left to {'its' if len(left) == 1 else 'their'} default)"
        said = self.probe.note(dict(zip(self.params, self.shown))) if self.probe.note is not None else ""
        return f"{shown} ({said})" if said else shown

    def key(self) -> str:
        """A stable text key: what recordings file answers under (made once: asked several times a question)."""
        key = self.__dict__.get("_key")
        if key is None:
            key = wire.canonical_key(self.probe.name, self.args)
            object.__setattr__(self, "_key", key)
        return key

    def decode(self, value: Any) -> Any:
        return self.probe.decode(value)


def question(asked: Function | Constant | Probe | str, *args: Any) -> Question:
    """A ``Question`` for a spec function or constant, a probe, or a function named by string."""
    if isinstance(asked, str):
        asked = Function(asked)
    if isinstance(asked, Function):
        return Question(lookup("calls.call"), (asked.name, *args), args, asked.name, asked.params,
                        asked.secret, asked.timeout)
    if isinstance(asked, Constant):
        return Question(lookup("calls.constant"), (asked.name,), (), asked.name, (), asked.secret)
    if isinstance(asked, Probe):
        return Question(asked, args, args, asked.subject, asked.params, asked.secret)
    raise TypeError(f"not a question: {asked!r}")


def question_from_key(key: str, timeout: float | None = None) -> Question | None:
    """The question a recording filed under ``key`` (None: a probe this harness no longer has).

    Made once per process (or inherited from the batch's parent, see ``prepare_questions``): such a
    question is only ever sent, never handed to a test, so one object can serve every ask of it."""
    made = _FROM_KEY.get((key, timeout), _NOT_MADE)
    if made is _NOT_MADE:
        made = _FROM_KEY[(key, timeout)] = _question_from_key(key, timeout)
    return made


def prepare_questions(entries: Iterable[tuple[str, float | None]]) -> None:
    """Make the questions of these (key, time limit) entries (a recording's ``all_questions``), and
    (where tensors remember their encodings, see ``wire.REMEMBER_ENCODINGS``) encode their arguments
    once: a batch does this before it forks its grading processes, which inherit the questions
    instead of each building them again."""
    for key, timeout in entries:
        q = question_from_key(key, timeout)
        if q is not None and wire.REMEMBER_ENCODINGS:
            wire.encode(q.args)


_FROM_KEY: dict[tuple[str, float | None], "Question | None"] = {}
_NOT_MADE = object()


def _question_from_key(key: str, timeout: float | None) -> Question | None:
    try:
        probe_name, args = wire.decode(key)
    except (wire.WireError, TypeError, ValueError):
        return None
    try:
        if probe_name == "calls.call" and args and type(args[0]) is str:
            q = question(Function(args[0], timeout=timeout), *args[1:])
        elif probe_name == "calls.constant" and args and type(args[0]) is str:
            q = question(Constant(args[0]))
        else:
            q = question(lookup(probe_name), *args)
    except (LookupError, TypeError, ValueError, AttributeError):
        return None
    return q if q.key() == key else None


@dataclass(frozen=True)
class Measured(Generic[R]):
    """An answer, and what the door saw of the call from outside the implementation."""

    value: R
    wall_seconds: float
    cpu_seconds: float
    mapped: tuple[Mapping, ...] | None = None  # with ``Observe.watch``: how files of that name are mapped, if seen
    grew: int | None = None  # with ``Observe.watch``: how far the process's resident memory rose in the call, if seen
    stalled: float | None = None  # with ``Observe.stall``: the seconds the process was held stopped in the call
    traced: bool | None = None  # with ``Observe.trace``: whether that path was made in the call, if it could be seen
    read: int | None = None  # with ``Observe.watch``: the bytes the process read through read calls in the call
    waited: float | None = None  # with ``Observe.waits``: the seconds the answering thread waited by its own doing
    # with ``Observe.trace``: whether a thread or child process the call started still ran after it, if seen
    left_running: bool | None = None


@dataclass(frozen=True)
class Traffic:
    """What crossing the door cost over a run: for the grader's timing record and the benchmarks."""

    round_trips: int = 0  # exchanges with the transport (a prefetch of many questions is one)
    questions: int = 0
    door_seconds: float = 0.0  # wall time spent waiting on the transport, this side
    implementation_seconds: float = 0.0  # of which inside the implementation's calls, as timed around them

    def to_dict(self) -> dict[str, float]:
        return {"round trips": self.round_trips, "questions": self.questions,
                "door seconds": round(self.door_seconds, 3),
                "implementation seconds": round(self.implementation_seconds, 3)}


# --------------------------------------------------------------------------- doors
class Door:
    """Questions in, plain checked answers out, through one transport."""

    trusted = False  # a trusted door (the reference, a judge) never blames the student

    def __init__(self, transport: Transport, *, label: str, test_budget: float = DEFAULT_TEST_BUDGET,
                 submission_budget: float = DEFAULT_SUBMISSION_BUDGET, timeout_scale: float = 1.0,
                 files: Implementation | None = None) -> None:
        self.transport = transport
        self.label = label
        self.files = files  # the implementation's files, read (never run) on this side
        self.test_budget = test_budget
        self.submission_budget = submission_budget
        self.timeout_scale = timeout_scale
        self.current_test = ""
        self._spent = 0.0  # this test's implementation seconds
        self._spent_before = 0.0  # ... and the earlier tests'
        self.stuck: dict[str, faults.TimeoutFault] = {}
        self._ahead: Lookahead | None = None  # questions sent ahead for the current test
        self._transport_lock = threading.Lock()  # the test and a lookahead thread take turns
        self.traffic = Traffic()
        # record mode: told of every question a test asks that could be sent ahead (test id, key, timeout)
        self.log: Callable[[str, str, float | None], None] | None = None

    # -- the API tests use --------------------------------------------------------------
    def call(self, function: Function | str, *args: Any) -> Any:
        return self.ask(question(function, *args))

    def constant(self, constant: Constant | str) -> Any:
        return self.ask(question(constant if isinstance(constant, Constant) else Constant(constant)))

    def run(self, probe: Probe[R], *args: Any) -> R:
        return self.ask(question(probe, *args))

    def measure(self, probe: Probe[R], *args: Any, observe: Observe = Observe()) -> Measured[R]:
        """``run``, and the call's wall and CPU seconds as this door saw them from outside, with what
        ``observe`` asks to be seen of it besides (``grader.harness.transport.Observe``)."""
        return self.ask(question(probe, *args), measured=True, observe=observe)

    def source(self, module: str) -> str | None:
        """The text of one of the implementation's modules, read here, never run (None: no such file)."""
        return self.files.source(module) if self.files is not None else None

    def sources(self) -> dict[str, str]:
        """Every module of the implementation, by name: read here, never run."""
        return self.files.sources() if self.files is not None else {}

    def can_hold_up(self) -> bool:
        """Whether ``Observe(stall=True)`` holds the implementation's process stopped during a call here (a
        sandboxed worker); elsewhere (the student's own process) the call is only made."""
        return bool(getattr(self.transport, "holds_up", False))

    def available(self, asked: Function | Constant | Probe) -> bool:
        """Whether this door can answer such questions at all (a measurement, in the handout: no)."""
        return True

    # -- one question ---------------------------------------------------------------------
    def ask(self, q: Question, *, measured: bool = False, observe: Observe = Observe()) -> Any:
        sendable = not observe and q.probe.batch  # (batch=False: run afresh)
        if self.log is not None and sendable:
            self.log(self.current_test, q.key(), q.timeout)
        reply = self._ahead.take(q.key()) if sendable and self._ahead is not None else None
        if reply is None:
            request = self.request(q, observe)
            self._check_budget(q)
            reply = self.exchange_now([request])[0]
        if isinstance(reply, BaseException):
            raise self._remember(reply)
        self._spent += reply.wall_seconds
        value = self._value(q, reply.outcome)
        return Measured(value, reply.wall_seconds, reply.cpu_seconds, reply.mapped, reply.grew, reply.stalled,
                        reply.traced, reply.read, reply.waited, reply.left_running) if measured else value

    def prefetch(self, questions: list[Question]) -> None:
        """Send these questions ahead (``grader.harness.lookahead``); each is answered from there
        when the test asks it, exactly as asking it alone would have answered it."""
        self.stop_prefetch()
        wanted = [q for q in questions if q.probe.batch]  # a question asked twice is sent twice
        self._ahead = Lookahead(self, wanted, background=getattr(self.transport, "concurrent", False))

    def stop_prefetch(self) -> None:
        if self._ahead is not None:
            self._ahead.stop()
            self._ahead = None

    def prefetch_recorded(self, entries: list[tuple[str, float | None]]) -> None:
        """Prefetch the questions a recording lists for this test: (question key, its own time limit)."""
        questions = []
        for key, timeout in entries:
            q = question_from_key(key, timeout)
            if q is not None:
                questions.append(q)
        self.prefetch(questions)

    def request(self, q: Question, observe: Observe = Observe()) -> Request:
        if q.subject in self.stuck:
            fault = self.stuck[q.subject].repeated()
            fault.asked = q.subject
            raise fault
        timeout = (q.timeout or q.probe.timeout) * self.timeout_scale
        stuck = tuple((f, fault.headline()) for f, fault in self.stuck.items())
        return Request(q.probe.name, q.args, q.subject, timeout, process_for(q.probe.process, q.subject), stuck,
                       observe)

    def exchange_now(self, requests: list[Request], on_reply: OnReply | None = None) -> list[Reply | BaseException]:
        """Carry requests now (after a lookahead's chunk already on its way); see ``Transport.exchange``."""
        with self._transport_lock:
            return self._exchange(requests, on_reply)

    def note_timeout(self, q: Question, reply: Reply) -> None:
        """Remember a function an answer sent ahead says ran out of time (later questions skip it)."""
        if type(reply.outcome) is dict and reply.outcome.get("status") == "timeout":
            try:
                self._raise_for(reply.outcome, q)
            except faults.TimeoutFault:
                pass  # remembered as stuck

    def _exchange(self, requests: list[Request], on_reply: OnReply | None = None) -> list[Reply | BaseException]:
        started = time.perf_counter()
        replies = self.transport.exchange(requests, on_reply) if on_reply else self.transport.exchange(requests)
        inside = sum(r.wall_seconds for r in replies if isinstance(r, Reply))
        t = self.traffic
        self.traffic = Traffic(t.round_trips + 1, t.questions + len(requests),
                               t.door_seconds + time.perf_counter() - started, t.implementation_seconds + inside)
        return replies

    @property
    def spent_in_run(self) -> float:
        """The implementation seconds every test of this run has spent so far."""
        return self._spent_before + self._spent

    def over_budget(self, spent: float) -> str | None:
        """Why no more may be asked where this test has spent ``spent`` seconds in the implementation: its own
        budget spent, or the whole run's; None while neither is."""
        if self.trusted:
            return None
        if spent > self.test_budget:
            return f"this test already spent {spent:.0f} s in the implementation (budget {self.test_budget:.0f} s)"
        if self._spent_before + spent > self.submission_budget:
            return (f"the tests so far spent {self._spent_before + spent:.0f} s in the implementation (budget "
                    f"{self.submission_budget:.0f} s for them all), every later question is refused at once")
        return None

    def _check_budget(self, q: Question) -> None:
        spent = self.over_budget(self._spent)
        if spent is not None:
            raise faults.BudgetFault(q.subject, f"{spent}; make it faster")

    def _remember(self, fault: BaseException) -> BaseException:
        if isinstance(fault, faults.TimeoutFault) and not fault.again:
            self.stuck.setdefault(fault.function, fault)
        return fault

    def _value(self, q: Question, outcome: Any) -> Any:
        if self.trusted and (type(outcome) is not dict or outcome.get("status") != "ok"):
            status = outcome.get("status") if type(outcome) is dict else outcome
            message = outcome.get("message", "") if type(outcome) is dict else ""
            raise faults.HarnessFault(f"reference {q.subject}", f"the oracle failed: {status}: {message}",
                                      q.inputs())
        try:
            value = self._raise_for(outcome, q)
        except (faults.Fault, faults.StudentRaised, faults.Mismatch) as fault:
            fault.asked = q.subject  # what a summary names: the function asked, not the process's word for it
            if isinstance(fault, (faults.ImportFault, faults.MissingFault)) and self.files is not None:
                # why, as the files say it here (a missing file, a syntax error and its line)
                kind = "import" if isinstance(fault, faults.ImportFault) else "missing"
                fault.found = self.files.load_finding(q.subject, kind)
            raise
        try:
            return q.decode(value)
        except ReportError as error:
            if self.trusted:
                raise faults.HarnessFault(q.subject, f"the oracle's report is malformed: {error}") from None
            raise faults.ReportFault(q.subject, str(error), q.inputs()) from None

    def _raise_for(self, outcome: Any, q: Question) -> Any:
        """The value of an ``ok`` outcome, else the matching fault."""
        if type(outcome) is not dict or outcome.get("status") not in _STATUSES:
            raise faults.ReportFault(q.subject, f"not an outcome: {outcome!r:.200}", q.inputs())
        status = outcome["status"]
        function = _text(outcome.get("function")) or q.subject
        if status == "ok":
            return outcome.get("value")
        if status == "not_implemented":
            raise faults.NotImplementedFault(function)
        if status == "import_error":
            raise faults.ImportFault(function, _text(outcome.get("message")))
        if status == "missing":
            raise faults.MissingFault(function, _text(outcome.get("message")))
        if status == "raised":
            raise faults.StudentRaised(function, _text(outcome.get("exc_type")), _text(outcome.get("message")),
                                       _text(outcome.get("where")), q.inputs(), _text(outcome.get("in_function")))
        if status == "timeout":
            seconds = outcome.get("seconds")
            seconds = seconds if type(seconds) in (int, float) else q.probe.timeout
            inner = _text(outcome.get("inputs"))
            raise self._remember(faults.TimeoutFault(function, round(seconds, 1), inner or q.inputs(),
                                                     _text(outcome.get("where"))))
        if status == "changed_argument":  # the caller's tensor destroyed: wrong whatever it returned
            index = outcome.get("index")
            name = q.params[index] if type(index) is int and 0 <= index < len(q.params) else "one of its arguments"
            raise faults.Mismatch(function, f"changed its argument {name} in place (the caller's tensor is "
                                  f"not as it was passed): compute into new tensors (x = x / s, not x.div_(s) "
                                  f"or x /= s; .t() or .T, not .t_())", inputs=q.inputs(), show_values=False)
        if status == "left_state":  # the caller's torch settings changed under it: wrong whatever it returned
            changed = outcome.get("changed")
            said = "; ".join(_text(c) for c in changed[:6]) if type(changed) is list and changed else "its state"
            raise faults.Mismatch(function, f"left torch's process-wide settings changed for its caller: {said}. "
                                  "A function must restore what it changes: pass dtype= or device= to the calls "
                                  "that need them, or use a with-block (torch.autocast, torch.no_grad, a mode) "
                                  "that puts the setting back", inputs=q.inputs(), show_values=False)
        if status == "unsent" and not self.trusted:  # what it returned, too large or unreadable to send back
            raise faults.UnsentFault(function, _text(outcome.get("message"))[:200], q.inputs())
        if status == "stuck":
            earlier = self.stuck.get(function) or faults.TimeoutFault(function, q.timeout or q.probe.timeout)
            chance = outcome.get("again")
            if type(chance) in (int, float) and 0 < chance < 1e6:  # stopped again: where, and on what
                raise earlier.repeated(chance, _text(outcome.get("inputs")) or q.inputs(), _text(outcome.get("where")))
            raise earlier.repeated()
        if self.trusted:  # the oracle's own process: the grader's failure
            raise faults.HarnessFault(function, _text(outcome.get("message")), q.inputs())
        raise faults.WorkerFault(function, "it said: " + _text(outcome.get("message"))[-1500:], q.inputs())

    # -- the run ------------------------------------------------------------------------
    def begin_test(self, test_id: str) -> None:
        self.stop_prefetch()
        self.current_test = test_id
        self._spent_before += self._spent
        self._spent = 0.0

    def session(self) -> Session:
        return self.transport.session()

    def close(self) -> None:
        self.stop_prefetch()
        self.transport.close()


_STATUSES = frozenset(["ok", "not_implemented", "import_error", "missing", "raised", "timeout", "stuck",
                       "changed_argument", "left_state", "unsent", "harness_error"])


def _text(value: Any) -> str:
    """Text of an outcome, as messages may show it (the implementation wrote it: see ``printable``)."""
    return printable(value[:4000]) if type(value) is str else ""


def in_process(impl: Implementation, *, label: str, test_budget: float = DEFAULT_TEST_BUDGET) -> Door:
    """A door to an implementation in this process (students' runs, the staff's checks)."""
    return Door(InProcess(impl), label=label, test_budget=test_budget, files=impl)

