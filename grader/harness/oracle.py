"""The oracle: expected answers, behind the same kind of door as the implementation.

* ``live``    the staff ``reference`` package, run in this (trusted) process, and
              the judges (``grader/judges``, staff-only): in this process too, or,
              for the harness's own measurements, in a ``clean`` process where no
              submission ever ran.
* ``record``  live, and every example and answer is written down (``Recorder``).
* ``replay``  a recording's answers; the live oracle, where there is one, for a
              question the recording never met (the handout has none: such a
              question is a harness error, and a measurement is unavailable).
"""

from __future__ import annotations

from typing import Any

from grader.harness import faults, wire
from grader.harness.door import Door, Question
from grader.harness.impl import Implementation
from grader.harness.probe import Probe
from grader.harness.recording import Recorder, Recording
from grader.harness.spec import Constant, Function
from grader.harness.transport import InProcess, Observe, Reply, Request, Transport

MEMO_LIMIT = 20_000


class LiveOracle(Door):
    """The reference and the judges, trusted, memoised: the same question is answered once."""

    trusted = True

    def __init__(self, reference: Implementation, *, clean: Transport | None = None,
                 recorder: Recorder | None = None) -> None:
        local = InProcess(reference, judges=True)
        # the reference never loops: its time limits only ever catch a loaded machine (the first dispatch
        # mode imports torch's compiler), which is no reason for a harness error
        super().__init__(local, label="reference", files=reference, timeout_scale=4.0)
        self.clean = clean or local  # where measurements run: a clean worker when grading
        self.recorder = recorder
        self._memo: dict[str, str] = {}

    def ask(self, q: Question, *, measured: bool = False, observe: Observe = Observe()) -> Any:
        hit = self._memo.get(q.key()) if not measured else None
        if hit is not None:  # decoded afresh: callers may change what they get
            return self._value(q, wire.decode(hit))
        return super().ask(q, measured=measured, observe=observe)

    def _exchange(self, requests: list[Request], on_reply=None) -> list[Reply | BaseException]:
        replies = []
        for index, request in enumerate(requests):
            transport = self.clean if request.process == "clean" else self.transport
            replies.extend(transport.exchange([request]))
            if on_reply is not None and on_reply(index, replies[-1]):
                break
        return replies

    def _value(self, q: Question, outcome: Any) -> Any:
        value = super()._value(q, outcome)
        key = q.key()
        if key not in self._memo and (q.probe.kind == "probe" or q.probe.record):
            if len(self._memo) < MEMO_LIMIT:
                self._memo[key] = wire.encode(outcome)
            if self.recorder is not None:
                self.recorder.answer(key, outcome, q.secret)
        return value

    def close(self) -> None:
        super().close()
        if self.clean is not self.transport:
            self.clean.close()


class ReplayOracle(Door):
    """A recording's answers first; the live oracle (if any) for what it never met."""

    trusted = True

    def __init__(self, recording: Recording, live: LiveOracle | None = None) -> None:
        super().__init__(live.transport if live else InProcess(None), label="recorded",
                         files=live.files if live else None)
        self.recording = recording
        self.live = live

    def available(self, asked: Function | Constant | Probe) -> bool:
        return self.live is not None or not (isinstance(asked, Probe) and asked.kind == "judge" and not asked.record)

    def ask(self, q: Question, *, measured: bool = False, observe: Observe = Observe()) -> Any:
        outcome = self.recording.answer(q.key()) if not measured else None
        if outcome is not None:
            return self._value(q, outcome)
        if self.live is not None:
            return self.live.ask(q, measured=measured, observe=observe)
        if q.probe.kind == "judge" and not q.probe.record:
            raise faults.Unavailable(f"{q.probe.name} is measured only when grading")
        # (in the handout, a test's example edited, or tests/recorded/ from another handout; for staff, a
        # recording to make again)
        raise faults.HarnessFault(q.subject, "no recorded answer for this input: was the test file edited? restore "
                                  "tests/ as the handout gave it (the tests replay the answers recorded for their "
                                  "own examples); staff: record the handout again", q.inputs())

    def close(self) -> None:
        if self.live is not None:
            self.live.close()
