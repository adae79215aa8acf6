"""The implementation's side of the door: run one probe, report what happened as plain data.

This code runs where the implementation runs (this process, or a sandboxed
worker) and so can be tampered with by it: everything it answers is a claim,
decoded strictly and checked by the trusted side (``grader.harness.door``).
Its answer, an *outcome*, is a dict that crosses the wire:

    {"status": "ok", "value": ...}
    {"status": "not_implemented", "function": "strides.view_strides"}
    {"status": "raised", "function": ..., "exc_type": ..., "message": ..., "where": ...}
    {"status": "timeout", "function": ..., "seconds": ..., "where": ..., "inputs": ...}
    {"status": "stuck", "function": ..., "again": s}  (it ran out of time earlier: not run again, or, called by
                                                   another function, stopped again after a short second chance)
    {"status": "import_error" | "missing", "function": ..., "message": ...}
    {"status": "left_state", "function": ..., "changed": [what the call left changed of torch's settings]}
    {"status": "harness_error", "function": ..., "message": <traceback>}

A call runs under its own alarm: when it goes off, the innermost frame of the
implementation's own files says which function hung, on which line, and with
what arguments.
"""

from __future__ import annotations

import re
import signal
import threading
import time
import traceback
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from grader.harness.impl import MODULES, Implementation, LoadError, TimeLimit, safe_str
from grader.harness.probe import REGISTRY, ArgumentChanged, lookup
from grader.harness.show import show_inputs
from grader.harness.torchstate import pristine


class Expired(TimeLimit):
    """The call's own alarm went off (a BaseException: student code catching Exception lets it by)."""

    def __init__(self, function: str, where: str, inputs: str) -> None:
        super().__init__(function)
        self.function, self.where, self.inputs = function, where, inputs


class Stuck(BaseException):
    """A function that ran out of time earlier in this run was called again (``again``: the seconds of the
    second chance it was given, where another function called it; 0: refused at once)."""

    def __init__(self, function: str, again: float = 0.0, where: str = "", inputs: str = "") -> None:
        super().__init__(function)
        self.function, self.again, self.where, self.inputs = function, again, where, inputs


# A function that ran out of time is refused at once when asked again (its own test failed already: it costs
# its limit once). Called from inside another function, it may have hung on one input only and be fine on
# this one (contiguous_strides stuck on a size-0 shape, is_contiguous calling it on others): it runs again,
# stopped after this many seconds (or a tenth of the call's limit, if less), so that a bug costs its own
# function's tests and not its callers' too, at most this much a call.
SECOND_CHANCE_S = 1.0

# After a call's limit the alarm fires again this often, in case the code under test swallowed a stop.
REPEAT_STOP_S = 0.5


class Runner:
    """Answers requests for one implementation (``None`` in a clean process: judges only).

    ``judges``: whether this process may answer judges, the trusted side's own questions
    (the grading process and clean workers may; an implementation's worker never).
    """

    def __init__(self, impl: Implementation | None, *, in_worker: bool = False) -> None:
        self.impl = impl
        # in a worker no one presses Ctrl-C: a KeyboardInterrupt there is the implementation's own, raised as any
        # other exception is; in a student's own run it is the student stopping pytest, and goes on up
        self.in_worker = in_worker
        self.stuck: set[str] = set()
        self.subject = ""  # the function the request in progress is about
        self.timeout: float | None = None  # and its time limit
        # the probes registered before the implementation was imported (in a worker: all of them), kept apart
        # from the registry it could reach (the source reading refuses code that does: grader.harness.tamper)
        self.probes = dict(REGISTRY)

    def answer(self, request: Any, *, judges: bool = False) -> dict[str, Any]:
        if type(request) is not dict or request.get("op") != "probe":
            return _harness_error("runner", f"not a probe request: {request!r:.200}")
        name = request.get("probe")
        subject = str(request.get("subject") or name)
        probe = (self.probes.get(name) or lookup(name)) if type(name) is str else None
        if probe is None:
            return _harness_error(subject, f"no probe named {name!r}")
        judging = probe.kind == "judge"
        if (judging and (not judges or probe.fn is None)) or (not judging and self.impl is None):
            where = "this process" if judging else "a process without an implementation"
            return _harness_error(subject, f"{probe!r} cannot be answered in {where}")
        args = tuple(request.get("args") or ())
        if probe.name == "calls.call" and args and type(args[0]) is str:
            subject = args[0]
        for function, _ in request.get("stuck") or ():
            self._stub_out(str(function))
        timeout = request.get("timeout")
        self.subject, self.timeout = subject, float(timeout) if type(timeout) in (int, float) else None
        try:
            with _alarm(self.timeout, self):
                if not judging:
                    self._import_first(subject)
                with pristine() as left_changed:
                    value = probe.fn(*args) if judging else probe.fn(self.impl, *args)
                    changed = left_changed()
        except LoadError as exc:
            status = "import_error" if exc.kind == "import" else "missing"
            return {"status": status, "function": subject, "message": exc.detail}
        except Expired as exc:
            # later calls in this process fail at once: a stuck function costs its time limit once
            self._stub_out(exc.function or subject)
            return {"status": "timeout", "function": exc.function or subject, "seconds": timeout,
                    "where": exc.where, "inputs": exc.inputs}
        except Stuck as exc:
            return {"status": "stuck", "function": exc.function, "again": exc.again, "where": exc.where,
                    "inputs": exc.inputs}
        except ArgumentChanged as exc:
            return {"status": "changed_argument", "function": subject, "index": exc.index}
        except BaseException as exc:  # noqa: BLE001 - whatever the implementation raised, said as raised
            if isinstance(exc, KeyboardInterrupt) and not self.in_worker:
                raise
            where = self._innermost(exc)
            if isinstance(exc, NotImplementedError) and _a_stub(exc):
                function = f"{Path(where[0].filename).stem}.{where[1]}" if where else subject
                return {"status": "not_implemented", "function": function}
            if where is None and isinstance(exc, NotImplementedError):  # torch's: a Module with no forward
                return {"status": "raised", "function": subject, "exc_type": type(exc).__name__,
                        "message": safe_str(exc), "where": ""}
            if where is None and self._does_not_fit(exc):
                # raised binding the arguments, before any line of it ran: still the implementation's
                return {"status": "raised", "function": subject, "exc_type": type(exc).__name__,
                        "message": f"{safe_str(exc)} (it is called with the arguments the spec gives it)",
                        "where": ""}
            if where is None:
                return _harness_error(subject, "".join(traceback.format_exception(exc))[-4000:])
            frame, qualname = where
            message = "called sys.exit()" if isinstance(exc, SystemExit) else safe_str(exc)
            return {"status": "raised", "function": subject, "exc_type": type(exc).__name__,
                    "message": message, "where": f"{self.impl.relative(frame.filename)}:{frame.lineno} in {qualname}",
                    "in_function": f"{Path(frame.filename).stem}.{qualname}"}
        if changed:  # restored already; the call's answer is moot: it broke its caller
            return {"status": "left_state", "function": subject, "changed": changed}
        return {"status": "ok", "value": value}

    def import_ahead(self, subject: str, timeout: float | None) -> None:
        """Import the subject's module now, under the call's time limit, ahead of a call whose memory is
        watched from outside this process: what the module's import holds (a table, ``torch._dynamo`` behind
        a ``@torch.compile``) is not the call's. A worker imports every module at hello; in process the
        first call into a module would carry it. Whatever goes wrong is left for the call to meet."""
        if self.impl is None:
            return
        try:
            with _alarm(timeout, self):
                self._import_first(subject)
        except Expired:
            pass

    def _import_first(self, subject: str) -> None:
        """Import the subject's module before its call, in a pristine() of its own: what the module's import
        changes of torch's settings is put back, and not charged to the call (that module's tests are not
        the place for it, and the first call into a module would take the blame). A failure to import is
        left for the call itself to meet, as before."""
        short = subject.partition(".")[0]
        if not short.isidentifier() or self.impl.tried(short):
            return
        with pristine():
            try:
                self.impl.module(short)
            except (LoadError, RuntimeError):
                pass

    def import_all(self, seconds: float | None = None) -> None:
        """Import every module of the implementation this process imports, now: one that dies importing does
        so before any question, and one still running after ``seconds`` is stopped and does not import, said as
        that, with its line, to every question asked of it (the modules after it are imported when asked). A
        grader says why from its own reading of the file too (``Implementation.load_finding``)."""
        if self.impl is None:
            return
        deadline = time.monotonic() + seconds if seconds else None
        try:
            with _alarm(seconds, self):
                for short in (self.impl.only,) if self.impl.only else MODULES:
                    if deadline is not None and time.monotonic() >= deadline:
                        break
                    try:
                        self.impl.module(short)
                    except BaseException:  # noqa: BLE001 - whatever an import does: said when it is asked
                        pass
        except Expired:  # (the alarm's repeat, between two modules)
            pass

    # -- helpers -----------------------------------------------------------------------
    def _stub_out(self, function: str) -> None:
        """A function that ran out of time earlier raises ``Stuck`` at once when called again."""
        if function in self.stuck or self.impl is None:
            return
        self.stuck.add(function)
        module, _, name = function.partition(".")
        if "." in name:  # a method: left alone (a later call costs its time limit again)
            return
        try:
            target = self.impl.module(module)
        except BaseException:  # noqa: BLE001 - a module that does not import has nothing to stub
            return

        original = getattr(target, name, None)
        runner = self

        def stuck(*args: Any, **kwargs: Any) -> Any:
            if runner.subject == function or not callable(original):
                raise Stuck(function)
            with _second_chance(function, runner):
                return original(*args, **kwargs)

        stuck.__qualname__ = stuck.__name__ = name
        setattr(target, name, stuck)

    def _does_not_fit(self, exc: BaseException) -> bool:
        """A TypeError from binding a call's arguments to one of the implementation's own functions
        or classes (``open_dataset() missing 2 required positional arguments``, ``not callable``)."""
        if not isinstance(exc, TypeError) or self.impl is None:
            return False
        match = _BINDING.match(safe_str(exc))
        if match is None:
            return False
        name = match.group(1).split(".")[0]
        return any(name in vars(module) for module in self.impl.loaded())

    def _innermost(self, exc: BaseException):
        """The deepest traceback frame in the implementation's own files, as (summary, qualname)."""
        found = None
        tb = exc.__traceback__
        while tb is not None:
            code = tb.tb_frame.f_code
            if self.impl is not None and self.impl.owns(code.co_filename):
                summary = traceback.FrameSummary(code.co_filename, tb.tb_lineno, code.co_name, lookup_line=False)
                found = (summary, getattr(code, "co_qualname", code.co_name))
            tb = tb.tb_next
        return found

    def where_stopped(self, frame) -> tuple[str, str, str]:
        """(function, file:line, inputs) of the innermost frame of the implementation's files."""
        while frame is not None and (self.impl is None or not self.impl.owns(frame.f_code.co_filename)):
            frame = frame.f_back
        if frame is None:
            return "", "", ""
        code = frame.f_code
        function = f"{Path(code.co_filename).stem}.{getattr(code, 'co_qualname', code.co_name)}"
        names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
        values = tuple(frame.f_locals.get(name) for name in names)
        shown = [name for name in names if name != "self"]
        inputs = show_inputs(tuple(shown), tuple(v for n, v in zip(names, values) if n != "self"), {})
        return function, f"{self.impl.relative(code.co_filename)}:{frame.f_lineno} in {code.co_name}", inputs


_BINDING = re.compile(r"^([A-Za-z_][\w.]*)\(\) (?:missing \d+ required|takes \d+|takes from|got an unexpected|got multiple|"
                      r"takes no arguments)")


def _a_stub(exc: NotImplementedError) -> bool:
    """A stub's own ``raise NotImplementedError("memory.training_ledger")`` (or one with no message): not
    written yet. Any other (torch's "missing the required forward function", a branch of the student's own
    left for later) is reported as raised, with its message and line."""
    text = safe_str(exc)
    return not text or all(part.isidentifier() for part in text.split("."))


def _harness_error(function: str, message: str) -> dict[str, Any]:
    return {"status": "harness_error", "function": function, "message": message}


@contextmanager
def _second_chance(function: str, runner: Runner) -> Iterator[None]:
    """Run a stuck function called by another one for at most ``SECOND_CHANCE_S`` (or a tenth of the call's
    limit) inside the call's own alarm, which is put back as it was, less the time spent, afterwards."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        raise Stuck(function)
    left, _ = signal.getitimer(signal.ITIMER_REAL)
    if left <= 0:  # no alarm of the call's to stop it: refused at once
        raise Stuck(function)
    chance = min(SECOND_CHANCE_S, (runner.timeout or SECOND_CHANCE_S) / 10)
    started = time.monotonic()
    deadline = started + left
    outer = signal.getsignal(signal.SIGALRM)

    def expire(signum, frame):
        if time.monotonic() >= deadline and callable(outer):  # the call's own limit is up: its alarm
            outer(signum, frame)
        _, where, inputs = runner.where_stopped(frame)
        raise Stuck(function, round(chance, 2), where, inputs)

    signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, min(chance, left), REPEAT_STOP_S)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, outer)
        signal.setitimer(signal.ITIMER_REAL, max(deadline - time.monotonic(), 0.001), REPEAT_STOP_S)


@contextmanager
def _alarm(seconds: float | None, runner: Runner) -> Iterator[None]:
    """Stop a call that runs longer than ``seconds`` (main thread, POSIX only), and every
    ``REPEAT_STOP_S`` after that, in case the code under test swallowed the first stop."""
    usable = (seconds is not None and seconds > 0 and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return

    def expire(signum, frame):  # noqa: ARG001
        raise Expired(*runner.where_stopped(frame))

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds, REPEAT_STOP_S)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
