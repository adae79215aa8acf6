"""Questions sent ahead of a test's asks: what a grading replay does with a recording's question list.

A grading replay knows, from the recorded reference run, what each test will ask
the implementation. Sending those questions ahead, a chunk per round trip, cuts
the round trips from one per question to one per chunk, and where the transport
allows it (``concurrent``: a sandboxed worker in another process) a background
thread keeps the worker busy while the test compares the answers it already has.

What a test sees does not change: each answer is the one asking it alone would
have given (a question is sent exactly as ``Door.request`` builds it), a fault
comes back where the test asks, and:

* questions go in the order the test will ask them (a recording lists them per
  example, and a replay runs the examples in a known order), and the lookahead
  stays at most ``WINDOW`` answers ahead of the test, so a test that fails at its
  first example wastes little of the implementation's time (should the test ask
  out of order, the one it waits for is fetched whatever the window);
* it stops once the test's budget is spent, within a chunk too (the rest is asked, and refused, as usual);
* a function that ran out of time is not sent again (the transport and the
  worker stub it out within a chunk; later chunks leave it out).
"""

from __future__ import annotations

import sys
import threading
import weakref
from collections import Counter, deque
from typing import TYPE_CHECKING, Union

from grader.harness import faults
from grader.harness.transport import Reply

if TYPE_CHECKING:
    from grader.harness.door import Door, Question

FIRST_CHUNK, LAST_CHUNK = 8, 64  # chunks double from the first to the last size
# the harness's own threads (where the implementation runs in this process too): a probe that asks whether
# code ran beside a thread of its own leaves these out, and those alive when the harness was imported, before
# any implementation ran (a test runner's own: pytest-xdist's channel to its controller, at home)
HARNESS_THREADS: "weakref.WeakSet[threading.Thread]" = weakref.WeakSet()
THREADS_BEFORE: frozenset[int] = frozenset(sys._current_frames())
WINDOW = 96  # answers at most waiting for the test to ask them

Answer = Union[Reply, BaseException]


class Lookahead:
    def __init__(self, door: "Door", questions: list["Question"], *, background: bool) -> None:
        self.door = door
        self.questions = questions
        self.keys = Counter(q.key() for q in questions)  # answers still to come or to be taken, by key
        self.answers: dict[str, deque[Answer]] = {}  # a question asked twice has two answers
        self.held = 0  # answers waiting for the test to take them
        self.next = 0  # the first question not sent yet
        self.chunk = FIRST_CHUNK
        self.spent = door._spent
        self.stopped = False  # no more chunks: done, cancelled, or out of budget
        self.wanted: str | None = None  # the key the test is waiting for, if any
        self.cond = threading.Condition()
        self.thread = None
        if background and questions:
            self.thread = threading.Thread(target=self._run, name="lookahead", daemon=True)
            HARNESS_THREADS.add(self.thread)
            self.thread.start()

    # -- the test's side --------------------------------------------------------------------
    def take(self, key: str) -> Answer | None:
        """The answer to a question sent ahead (waiting for it if it is on its way); None for a
        question this lookahead does not hold (the caller asks it directly)."""
        if self.keys[key] <= 0:
            return None
        if self.thread is None:
            while not self.answers.get(key) and not self.stopped:
                self._send_chunk()
            return self._pop(key)
        with self.cond:
            self.wanted = key  # the window does not hold back an answer the test waits for
            self.cond.notify_all()
            while not self.answers.get(key) and not self.stopped:
                self.cond.wait()
            self.wanted = None
            answer = self._pop(key)
            self.cond.notify_all()
            return answer

    def _pop(self, key: str) -> Answer | None:
        self.keys[key] -= 1
        waiting = self.answers.get(key)
        if not waiting:
            return None  # stopped before it was sent: asked directly
        self.held -= 1
        return waiting.popleft()

    def stop(self) -> None:
        """Send nothing more; wait for a chunk already on its way."""
        with self.cond:
            self.stopped = True
            self.cond.notify_all()
        if self.thread is not None:
            self.thread.join()

    # -- sending ----------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            while True:
                with self.cond:
                    while not self.stopped and self.held >= WINDOW and self.wanted is None:
                        self.cond.wait()
                    if self.stopped:
                        return
                self._send_chunk()
                with self.cond:
                    if self.stopped:
                        return
        except BaseException:  # noqa: BLE001 - the test asks what is left directly, and sees the error there
            with self.cond:
                self.stopped = True
                self.cond.notify_all()

    def _send_chunk(self) -> None:
        door = self.door
        if self.next >= len(self.questions) or door.over_budget(self.spent) is not None:
            self._finish()
            return
        taken = self.questions[self.next:self.next + self.chunk]
        self.next += len(taken)
        self.chunk = min(self.chunk * 2, LAST_CHUNK)
        chunk: list[Question] = []
        left_out: list[Question] = []  # about a function already stuck: asked directly, and refused at once
        for q in taken:
            (left_out if q.subject in door.stuck else chunk).append(q)
        with self.cond:
            for q in left_out:
                self.keys[q.key()] -= 1

        def deliver(index: int, answer: Answer) -> bool:  # each answer as it comes, not the chunk's end
            q = chunk[index]
            with self.cond:
                self.answers.setdefault(q.key(), deque()).append(answer)
                self.held += 1
                if isinstance(answer, Reply):
                    self.spent += answer.wall_seconds
                    door.note_timeout(q, answer)
                elif isinstance(answer, faults.TimeoutFault):
                    door._remember(answer)
                self.cond.notify_all()
                # the budget spent: the rest of the chunk is left unasked (asked by the test, each is refused),
                # not answered at up to its time limit each (a chunk of 64 slow calls took minutes past it)
                return door.over_budget(self.spent) is not None

        if chunk:
            door.exchange_now([door.request(q) for q in chunk], deliver)
        with self.cond:
            if self.next >= len(self.questions):
                self.stopped = True
            self.cond.notify_all()

    def _finish(self) -> None:
        with self.cond:
            self.stopped = True
            self.cond.notify_all()
