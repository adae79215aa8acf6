"""One way to ask both doors a question and compare their answers.

    ask(impl, oracle, view_strides, shape, strides, new_shape).same()
    ask(impl, oracle, train_run, *case).where("losses").within(rel=1e-4, abs=1e-6, problem="the losses differ")

``ask`` puts the same question to the oracle and to the implementation and
returns both answers (``Answers``). Its methods check and compare, and raise the
harness's one-paragraph ``Mismatch`` when something is off:

    check(schema)      the implementation's answer must have this type (default: the stub's annotation)
    same()             ... and equal the oracle's exactly
    within(rel, abs)   ... or within a tolerance (floats and float tensors)
    elementwise(tol)   ... or within one tolerance per tensor element
    where(path)        narrow both answers to a report field, a dict key or an index
    fail(problem)      a problem that needs no values shown
    require(cond, ...) a property in the same message format

A test that grades something else of right answers (einops making them, gradients made without autograd) checks
the values first, inside ``right_answers_first(note)``: a wrong answer fails it too, and says why.

No test builds a ``Mismatch`` itself.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
from dataclasses import dataclass
from typing import Any, Callable, NoReturn

import torch

from grader.harness.compare import EXACT, Compare, beyond, differs
from grader.harness.digest import hide
from grader.harness.door import Door, Measured, question
from grader.harness.faults import Mismatch, SourceRefusal
from grader.harness.probe import Probe
from grader.harness.schema import Schema, as_tuple
from grader.harness.spec import Constant, Function
from grader.harness.show import Later
from grader.harness.transport import Observe
from grader.harness.wire import Record


def ask(impl: Door, oracle: Door | None, asked: Function | Constant | Probe | str, *args: Any,
        returns: Schema | None = None, observe: Observe = Observe()) -> "Answers":
    """Both answers to one question (the oracle's is None without an oracle).

    The oracle is asked first: if the reference itself cannot answer, that is a
    harness error, before the student's code is blamed for anything. ``observe``: what the door is to
    see of the implementation's call from outside (``Door.measure``; what it saw is in ``Answers.seen``).
    """
    q = question(asked, *args)
    expected = oracle.ask(q) if oracle is not None else None
    if q.secret is not None and expected is not None:
        # Fixed inputs: the handout holds only a digest of this answer, and the graded run compares with one too,
        # so that it passes and fails what the handout does and shows no more (a failure's message is shown to the
        # student, on Gradescope as at home: with the value, one resubmission per entry would read the table).
        expected = hide(expected, q.secret)
    seen = impl.ask(q, measured=True, observe=observe)
    if returns is None and isinstance(asked, (Function, Constant)):
        returns = asked.returns
    got = returns.plain(seen.value) if returns is not None else seen.value
    return Answers(q.subject, Later(q.inputs), got, expected, returns, seen=seen)


@dataclass(frozen=True)
class Answers:
    """The implementation's answer (``got``) and the oracle's (``expected``) to one question."""

    subject: str  # the spec function failures are reported against
    inputs: str | Later  # the question's inputs, as a failure message shows them (made when one does)
    got: Any
    expected: Any
    returns: Schema | None = None  # the type ``got`` must have
    path: str = ""  # where in the answers ``where`` has narrowed to
    seen: Measured | None = None  # what the door saw of the implementation's call, from outside

    # -- narrowing ---------------------------------------------------------------------
    def where(self, path: str | int) -> "Answers":
        """Both answers narrowed to a report field, a record field, a dict key or an index. A named tuple
        there is the tuple of its fields, as a function's own answer is (``ask``): a probe's report holds
        what the implementation returned as it returned it (``get_batch``'s ``Batch(x, y)`` is the pair)."""
        location = f"{self.path}[{path!r}]" if not isinstance(path, str) or not path.isidentifier() \
            else f"{self.path}.{path}" if self.path else path
        return dataclasses.replace(self, got=as_tuple(_part(self.got, path)),
                                   expected=as_tuple(_part(self.expected, path)), returns=None, path=location)

    def map(self, fn: Callable[[Any], Any]) -> "Answers":
        """Both answers seen through ``fn`` (their dtypes, say), to compare that first."""
        return dataclasses.replace(self, got=_apply(fn, self.got), expected=_apply(fn, self.expected), returns=None)

    def about(self, subject: str) -> "Answers":
        """The same answers, failures reported against another function."""
        return dataclasses.replace(self, subject=subject)

    # -- checking ----------------------------------------------------------------------
    def check(self, schema: Schema | None = None) -> "Answers":
        """``got`` must fit ``schema`` (default: the stub's return annotation)."""
        schema = schema or self.returns
        if schema is not None:
            check(self.got, schema, self.subject, self.inputs)
        return self

    def same(self, problem: str | None = None) -> Any:
        """``got`` must fit its schema and equal ``expected`` exactly. Returns ``got``."""
        return self._compare(EXACT, problem)

    def within(self, rel: float = 0.0, abs: float = 0.0, problem: str | None = None) -> Any:  # noqa: A002
        """``got`` must fit its schema and equal ``expected`` within ``rel`` and ``abs``."""
        return self._compare(Compare(rel=rel, abs=abs), problem)

    def elementwise(self, tolerance: torch.Tensor, how: str, problem: str = "wrong value") -> Any:
        """Tensors equal within one tolerance per element (an error bound that grows with the inputs)."""
        self.check()
        why = beyond(self.got, self.expected, tolerance)
        if why:
            raise Mismatch(self.subject, f"{problem}: {why}", inputs=self.inputs, got=self.got,
                           expected=self.expected, how=how)
        return self.got

    def _compare(self, how: Compare, problem: str | None) -> Any:
        self.check()
        why = differs(self.got, self.expected, how)
        if why:
            plain = why.startswith("different value")
            if problem is None:  # "wrong value", and how they were compared
                text, shown = ("wrong value" if why == "different value" else f"wrong value: {why}"), how.describe()
            else:  # the test's own words, with where they differ
                text, shown = problem + ("" if plain else f" ({why})"), "" if how.exact else how.describe()
            raise Mismatch(self.subject, text, inputs=self.inputs, got=self.got, expected=self.expected, how=shown)
        return self.got

    # -- failing -----------------------------------------------------------------------
    def fail(self, problem: str) -> NoReturn:
        """A problem that needs no values shown (a missing key, a wrong structure)."""
        raise Mismatch(self.subject, problem, inputs=self.inputs, show_values=False)

    def require(self, condition: bool, problem: str, *, got: Any = None, expected: Any = None,
                show_values: bool = True, how: str = "") -> None:
        """A property in the same message format as the comparisons."""
        if not condition:
            raise Mismatch(self.subject, problem, inputs=self.inputs, got=got, expected=expected,
                           show_values=show_values, how=how)


def _apply(fn: Callable[[Any], Any], value: Any) -> Any:
    try:
        return None if value is None else fn(value)
    except Exception:  # noqa: BLE001 - a value of another shape: nothing to see through
        return value


def _part(value: Any, path: str | int) -> Any:
    if value is None:
        return None
    if isinstance(path, str) and dataclasses.is_dataclass(value) and not isinstance(value, Record):
        return getattr(value, path)
    if isinstance(value, Record):
        return value.get(path)
    if type(value) is dict:
        return value.get(path)
    if type(value) in (tuple, list) and isinstance(path, int):
        return value[path] if -len(value) <= path < len(value) else None
    return None


def fail(subject: str, problem: str, inputs: str = "") -> NoReturn:
    """A failure about ``subject`` that needs no values shown."""
    raise Mismatch(subject, problem, inputs=inputs, show_values=False)


def refuse(subject: str, problem: str) -> NoReturn:
    """A failure found by reading the submission's source, not by running it (``SourceRefusal``)."""
    raise SourceRefusal(subject, problem)


def refuse_unless(condition: bool, subject: str, problem: str) -> None:
    """``refuse`` unless ``condition``: a property read from the source."""
    if not condition:
        raise SourceRefusal(subject, problem)


def require(condition: bool, subject: str, problem: str, *, inputs: str = "", got: Any = None,
            expected: Any = None, show_values: bool = True, how: str = "") -> None:
    """A property check in the same message format as ``Answers``."""
    if not condition:
        raise Mismatch(subject, problem, inputs=inputs, got=got, expected=expected, show_values=show_values,
                       how=how)


def check(value: Any, schema: Schema, subject: str, inputs: str | Later = "") -> Any:
    """``value`` must fit ``schema``; returns it."""
    why = schema.problem(value)
    if why:
        raise Mismatch(subject, f"{headline(why)}: {why}", inputs=inputs, got=value, show_expected=False)
    return value


def headline(why: str) -> str:
    """The first words of a message for what a schema found (``Schema.problem``): a tensor of the right
    type with the wrong shape is not a "wrong type"."""
    if "; expected shape " in why:
        return "wrong shape"
    if "; expected one on " in why:
        return "wrong device"
    if "with NaN or infinite values" in why or "; expected a finite number" in why:
        return "not finite"
    if re.search(r" of \d+ items?; expected \d+$", why):  # the right container, too many or too few items
        return "wrong length"
    return "wrong type"


@contextlib.contextmanager
def right_answers_first(note: str):
    """The value checks a test makes before what it grades: a wrong answer fails it as it fails the test of its
    value, and says so (``Mismatch.note``, in the summary a Gradescope run shows at once too), so that one bug's
    several failures read as one. Also a decorator of a check."""
    try:
        yield
    except Mismatch as wrong:
        wrong.note = note
        raise
