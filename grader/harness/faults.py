"""What can go wrong on the far side of the door, as exceptions with plain-words messages.

Two families, because hypothesis must treat them differently:

* ``Exception`` subclasses (``Mismatch``, ``StudentRaised``) mean "this input
  exposes a bug": hypothesis shrinks them to the smallest failing input.
* ``Fault`` subclasses derive from ``BaseException`` so that hypothesis lets them
  through at once instead of shrinking: a stub raises on every input, and a
  worker that timed out or crashed should not be asked again hundreds of times.

Every one of them carries what the report needs (function, inputs, what came
back, what was expected) and renders itself with ``describe()``; ``summary()``
says what failed without the example or any text the implementation's process
sent (what a grader shows while its examples must stay secret: a seed graded
again for every resubmission, whose examples a table could learn one failure at a time).
"""

from __future__ import annotations

from typing import Any


class Fault(BaseException):
    """The implementation could not be asked: stop this test now, score it 0."""

    kind = "fault"
    # the function the test asked about, set by the door: a summary names it, never the word of the process
    # that answered (which runs the implementation's code and may say anything)
    asked: str | None = None
    # what the door found on its own side of it (a module's file read and compiled there, never run), for a
    # summary: words the process that answered had no part in
    found: str = ""

    def __init__(self, function: str, detail: str = "", inputs: str = "") -> None:
        super().__init__(function, detail)
        self.function = function
        self.detail = detail
        self.inputs = inputs

    def describe(self) -> str:
        lines = [self.headline()]
        if self.inputs:
            lines.append(f"  input:    {self.inputs}")
        if self.detail:
            lines.extend("  " + line for line in self.detail.splitlines())
        return "\n".join(lines)

    def headline(self) -> str:
        return f"{self.kind}: {self.function}"

    def summary(self) -> str:  # the kind is the class's; no figure or text the process sent (a time, a message)
        return f"{self.kind}: {self.asked or self.function}" + (f"\n  {self.found}" if self.found else "")

    def __str__(self) -> str:
        return self.describe()


class NotImplementedFault(Fault):
    """The function still raises NotImplementedError (a stub not yet written)."""

    kind = "not implemented"


class ImportFault(Fault):
    """The implementation's module does not import."""

    kind = "does not import"


class MissingFault(Fault):
    """The module imports but does not define the function the spec names."""

    kind = "missing"


class TimeoutFault(Fault):
    """A call ran past its time limit. ``function`` is the implementation's own function it was
    in when stopped (``training.get_batch`` inside ``train``), with that function's own
    inputs and line where the process could still tell."""

    kind = "timed out"

    def __init__(self, function: str, seconds: float, inputs: str = "", where: str = "", again: bool = False,
                 chance: float = 0.0, importing: bool = False) -> None:
        super().__init__(function, "", inputs)
        self.seconds = seconds
        self.where = where
        self.again = again  # it ran out of time earlier in this run: not run again, or given ``chance`` seconds
        self.chance = chance  # called by another function, it had this long again, and did not finish
        self.importing = importing  # the process answering it ran out of time importing the submission

    def headline(self) -> str:
        if self.importing:
            return (f"timed out after {self.seconds:g} s importing the submission, before anything could be asked "
                    "of it: code at the top level of a module (or of assignment/__init__.py) runs when it is "
                    "imported, and this ran that long (a loop, or a long computation, belongs in a function)")
        text = f"timed out after {self.seconds:g} s in {self.function}"
        if self.again and self.chance:
            return text + (f" (earlier in this run; called again by another function, it did not finish "
                           f"in {self.chance:g} s either)")
        return text + (" (earlier in this run; not run again)" if self.again else "")

    def describe(self) -> str:
        text = super().describe()
        return text + (f"\n  at        {self.where}" if self.where else "")

    def repeated(self, chance: float = 0.0, inputs: str = "", where: str = "") -> "TimeoutFault":
        """The same fault, for a later call that is not run at all (or, ``chance``: stopped again that soon,
        on ``inputs`` at ``where``)."""
        return TimeoutFault(self.function, self.seconds, inputs or self.inputs, where or self.where, again=True,
                            chance=chance)


class CrashFault(Fault):
    """The process running the implementation died (segfault, exit, memory or CPU limit)."""

    kind = "crashed"

    def headline(self) -> str:
        return f"crashed in {self.function}"


class BudgetFault(Fault):
    """This test has used up its time budget across many calls."""

    kind = "too slow"

    def headline(self) -> str:
        return f"too slow: {self.function}"


class HarnessFault(Fault):
    """The harness itself failed. Not the student's fault: staff must look."""

    kind = "harness error"


class WorkerFault(Fault):
    """The process running the implementation says the harness's code there failed. Only a claim: that
    process runs the student's code, which can say anything, and code of theirs that breaks the
    harness's (a builtin bound where a function belongs) looks the same. So it is never counted as the
    grader's own failure, and its words are shown as the worker's."""

    kind = "failed in its process"

    def headline(self) -> str:
        return (f"the harness's code that calls {self.function} failed in the process running your code "
                "(what your code returns or changes can cause this; if you think it did not, tell the staff)")


class ReportFault(Fault):
    """The implementation's process answered with something a probe never sends: a report of
    the wrong shape. Honest code cannot cause it (the probe builds the report from the
    harness's own objects), so it is the implementation's doing, never a harness error."""

    kind = "malformed answer"

    def headline(self) -> str:
        return f"the process running {self.function} sent a malformed answer"


class UnsentFault(Fault):
    """What the implementation returned could not be sent back from its process (too large, or not plain data
    once read): its answer's doing, not an exception it raised nor the harness's error."""

    kind = "answer not sent back"

    def headline(self) -> str:
        return f"what {self.function} returned could not be sent back to the grader"


class ReachesInFault(Fault):
    """The submission's source reaches into code it did not write (``grader.harness.tamper``): the
    grader, the tests, other code's namespaces or frames, a library's objects. A probe run beside such
    code may report what that code made up, so no test of the parts whose workers run it runs."""

    kind = "reaches into other code"

    def __init__(self, places: list[str]) -> None:
        more = f" (and {len(places) - 1} more place{'s' if len(places) > 2 else ''}: {', '.join(places[1:4])}" \
               f"{', ...' if len(places) > 4 else ''})" if len(places) > 1 else ""
        hints = [hint for trigger, hint in HINTS if any(trigger in place.lower() and not (
            hint is LOADER_OPTIONS and "unpickler call" in place) for place in places)]  # (not a loader's options)
        # a loader that may run a pickle's code runs code no reading sees, as exec would: said as what it is
        self.loads_code = all("pickle" in place for place in places)
        # names given at run time, whatever they name (the submission's own objects too): the reading cannot
        # tell which, so said as that, with what to write instead first
        self.by_name = all(any(word in place for word in BY_NAME) for place in places)
        # a debugger left in (breakpoint(), pdb.set_trace()): said as that, with where to debug instead
        self.debugger = all(any(word in place.split(" ", 1)[-1] for word in DEBUGGERS) for place in places)
        # a log call asking where its caller is (logging's stacklevel=2, which linters ask for): what to write first
        self.callers = all("asks where its callers are" in place for place in places)
        general = LOADS_CODE if self.loads_code else REACHES_IN
        hints = list(dict.fromkeys(hints))
        first = self.by_name or self.debugger or self.callers
        super().__init__(places[0] + more, " ".join([*hints, general] if first else [general, *hints]))

    def summary(self) -> str:  # read from the source alone: no example, nothing the process sent
        return self.describe()

    def headline(self) -> str:
        if self.loads_code:
            return f"your submission may load a file in a way that runs code the file names: {self.function}"
        if self.by_name:
            return (f"your submission looks an attribute up by a name the reading cannot see, which could reach "
                    f"into code it did not write: {self.function}")
        if self.debugger:
            return f"your submission calls a debugger, which cannot run under the tests: {self.function}"
        if self.callers:
            return f"your submission asks a log call to name its callers, which are the tests' frames: {self.function}"
        return f"your submission reaches into code it did not write: {self.function}"


DEBUGGER = ("A debugger cannot stop a test (it reads the frames of the code that called yours): take the "
            "breakpoint() or pdb call out, and debug in a script of your own instead (python -c \"from assignment "
            "import strides; print(strides.contiguous_strides((2, 3)))\" in the handout's folder) or in an "
            "if __name__ == \"__main__\": block at the end of the module, which the tests never run.")


REACHES_IN = ("Your modules may use torch, numpy, einops, jaxtyping, the standard library and each other. They must "
              "not import the grader or the tests, reach other code's namespaces, frames or objects (sys.modules, "
              "gc.get_objects, sys._getframe, a function's __globals__, importlib, exec, eval), peek at or switch "
              "off torch's active modes, read einops' internals (einops.einops.get_backend, einops._backends: use "
              "its public functions), or replace or change a library's objects (os.mkdir = ..., an update of a "
              "dict a module holds). The tests call your functions beside code of the harness that such lines "
              "could change, so no test of the part whose module has them (or imports that module) runs, even where "
              "they never run: those tests fail until the lines are gone.")


LOADS_CODE = ("A file loaded so can run any code, which no reading of your source sees (as exec would), beside code of "
              "the harness that such code could change: no test of the part whose module has the call (or imports "
              "that module) runs, even where it never runs; those tests fail until the call is changed.")


BUILT_NAMES = ("A name given to getattr or setattr is read only where it can hold nothing but text written out in the "
               "module: a literal; a loop over, or an item of, a tuple, list or dict written out, bound once and only "
               "ever read (iterated, indexed, .get, in, len, made into text); a row of a tuple of tuples picked by a "
               "comprehension ([r for r in TABLE if ...][0], {r[0]: r for r in TABLE}[key]) or next(..., None); a "
               "helper's parameter every call gives such text (a def, or a lambda bound to a name, that no other "
               "module takes); a field of a plain NamedTuple's rows written out; a dataclass's or a named tuple's "
               "own fields' names (getattr(self, f.name) for f in dataclasses.fields(self), or over "
               "self.__dataclass_fields__ or self._fields); a name of your own object that starts with letters "
               "written out (getattr(self, f\"layer{i}\")). A table handed to a function (a "
               "logger, a helper of yours), changed or bound again, or names kept in a dataclass or an Enum, are "
               "not read: put the objects themselves in the table (torch.float32, not 'float32'), or keep the names "
               "in a table written out and only read.")

ATTRIBUTES_BY_NAME = ("An attribute set by a name given at run time (setattr(self, key, value) over keyword arguments, "
                      "self.__dict__.update(kwargs), SimpleNamespace(**options), a class made with type()) is refused: "
                      "the reading cannot tell which names it sets, and one (__array_interface__) hands numpy memory "
                      "by address. Name each attribute (self.lr = lr), or keep such options in a dict "
                      "(self.options = dict(kwargs)).")
PARTIAL_OPTIONS = ("A functools.partial's options (.keywords) can be changed after they are read, so a loader's "
                   "weights_only or allow_pickle kept there is not what runs: call torch.load or np.load itself, with "
                   "its options written out.")
LOADER_OPTIONS = ("torch.load (and np.load) run the code a pickle names unless told not to: weights_only=True "
                  "(allow_pickle=False). The reading must see that value at the call: write it out, or keep it in a "
                  "name bound once to the constant (WEIGHTS_ONLY = True), a dict of options written out and only read "
                  "(torch.load(path, **LOAD_OPTIONS)), or a field of a plain dataclass's one instance made at the "
                  "module's top and only read for its fields (OPTIONS.weights_only, **dataclasses.asdict(OPTIONS)), "
                  "each in the module that calls torch.load (of another module of yours, only such a constant is "
                  "followed: from .common import WEIGHTS_ONLY, or common.WEIGHTS_ONLY); a "
                  "value a caller passes in, or an object that is handed on or changed, may be anything when it "
                  "runs.")
SAFE_GLOBALS = ("torch.serialization.add_safe_globals and safe_globals (and the list behind them) let torch.load's "
                "weights_only unpickler call more than it does by itself: a checkpoint's pickle that names such a "
                "function (shutil.rmtree) runs it. Save tensors, state dicts, lists, dicts and numbers, which "
                "torch.load(path, weights_only=True) reads as it is.")
LIBRARY_OPS = ("torch.library registers an op in torch's dispatcher for the whole process (custom_op, "
               "Library.impl, register_autograd): every later call of that op, the harness's included, would run code "
               "of yours. Write a plain function (a decorator of your own, if you like) instead.")
CALLERS = ("A log call's stacklevel above 1 (or stack_info=True, or a ** of options not written out handed to one) "
           "names the frames that called your function, which are the tests' own: log without it (stacklevel=1 "
           "names your line). A dict of options counts as written out where it is a display of its own keys, bound "
           "once to a name that is only ever handed on with ** (never changed, or given to anything else), in a module "
           "that does not call locals() (which hands the dict out). "
           "warnings.warn's stacklevel is fine: where your code runs, a warning never names the tests' frames.")
# what a refusal's places say -> what to write instead, said once after the paragraph above
HINTS = (("asks where its callers are", CALLERS), ("unpickler call", SAFE_GLOBALS), ("pickle", LOADER_OPTIONS),
         ("built at run time", BUILT_NAMES),
         ("uses setattr", ATTRIBUTES_BY_NAME), ("namespace", ATTRIBUTES_BY_NAME),
         ("makes a class at run time", ATTRIBUTES_BY_NAME), ("uses .keywords", PARTIAL_OPTIONS),
         ("torch.library", LIBRARY_OPS), *((word, DEBUGGER) for word in ("breakpoint", "pdb", "bdb")))
# places that are only names given at run time (a getattr's, a setattr's): their hints come first
BY_NAME = ("a name built at run time", "uses setattr")
DEBUGGERS = ("breakpoint", "pdb", "bdb")  # ... and a debugger's, first too


class Unavailable(Exception):
    """The oracle has no answer to give here (a measurement, in the handout)."""


class StudentRaised(Exception):
    """The implementation raised an exception on a valid input."""

    def __init__(self, function: str, exc_type: str, message: str, where: str, inputs: str,
                 in_function: str = "") -> None:
        super().__init__(function, exc_type, message)
        self.function = function
        self.exc_type = exc_type
        self.message = message
        self.where = where
        self.inputs = inputs
        self.in_function = in_function  # the implementation's own function it was raised in, where not ``function``

    def describe(self) -> str:
        # the implementation's own text: its lines after the first are set off, so that none reads as the
        # harness's own ("HARNESS ERROR ...") to a student or to staff reading the report
        message = self.message.replace("\n", "\n  | ")
        raised = f"raised {self.exc_type}: {message}".rstrip(": ")
        inner = self.in_function
        if inner and inner != self.function and not inner.startswith(self.function + "."):
            # Cruncher.__init__ raised in the probe of num_parameters: named as what raised, and what was checked
            lines = [f"{inner} {raised} (while checking {self.function})"]
        else:
            lines = [f"{self.function} {raised}"]
        if self.inputs:
            lines.append(f"  input:    {self.inputs}")
        if self.where:
            lines.append(f"  at        {self.where}")
        return "\n".join(lines)

    asked: str | None = None  # as ``Fault.asked``

    def summary(self) -> str:
        # not even its type's name: code picks which of Python's forty exceptions to raise as freely as what to
        # return, and five bits of the example a failing test would carry out
        return f"{self.asked or self.function} raised an exception"

    def __str__(self) -> str:
        return self.describe()


def _read_alike(got: str, expected: str) -> bool:
    """Two values' texts that read as the same (``35555555556.0`` and ``3.555555556e+10``, a whole float's
    every digit beside another's first ten)."""
    try:
        return got == expected or f"{float(got):.10g}" == f"{float(expected):.10g}"
    except ValueError:
        return False


class Mismatch(AssertionError):
    """The implementation answered, and the answer is wrong (type or value)."""

    def __init__(
        self,
        function: str,
        problem: str,
        *,
        inputs: str = "",
        got: Any = None,
        expected: Any = None,
        how: str = "",
        show_values: bool = True,
        show_expected: bool = True,
    ) -> None:
        super().__init__(function, problem)
        self.function = function
        self.problem = problem
        self.inputs = inputs
        self.got = got
        self.expected = expected
        self.how = how
        self.show_values = show_values
        self.show_expected = show_values and show_expected  # off where the problem already says what was due

    def describe(self) -> str:
        # (imported here: show imports torch, and the commands that only read results, merge among them,
        # import this module for its kinds)
        from grader.harness.show import HIDDEN_NOTE, hides, show

        lines = [f"{self.function}: {self.problem}" + (f" ({self.note})" if self.note else "")]
        if self.inputs:
            lines.append(f"  input:    {self.inputs}")
        if self.show_values:
            got, expected = show(self.got), show(self.expected)
            if _read_alike(got, expected) and self.show_expected:  # they differ beyond ten digits (a tight
                got, expected = show(self.got, 17), show(self.expected, 17)  # tolerance): all of them
            lines.append(f"  returned: {got}")
            if self.show_expected:
                lines.append(f"  expected: {expected}")
        if self.how:
            lines.append(f"  ({self.how})")
        if self.show_expected and hides(self.expected):
            lines.append(f"  {HIDDEN_NOTE}")
        return "\n".join(lines)

    asked: str | None = None  # as ``Fault.asked``
    # the test's own words on why a wrong answer fails it too, where it grades something else of right answers
    # (``ask.right_answers_first``): shown in the summary as well, being the grader's
    note: str = ""

    def summary(self) -> str:  # the problem's words hold the example's values, and often what came back
        return f"{self.asked or self.function}: a wrong answer" + (f" ({self.note})" if self.note else "")

    def __str__(self) -> str:
        return self.describe()


def named_inputs(function: str, args: tuple, kwargs: dict | None = None) -> str:
    """Render a call's arguments with the parameter names the stub gives them."""
    from grader.harness.show import show_inputs
    from grader.harness.spec import parameter_names

    return show_inputs(parameter_names(function), args, kwargs or {})


class SourceRefusal(Mismatch):
    """What a reading of the submission's files (read, never run) finds against a test: a clock never read, a
    FLOP counter of torch's, autograd, einops never called. Nothing in its words came from running the code or
    from an example, so a run that withholds examples (Gradescope's) shows it whole at once, where a wrong
    answer's words wait (it read "a wrong answer" there, of right answers)."""

    def __init__(self, function: str, problem: str) -> None:
        super().__init__(function, problem, show_values=False)

    def summary(self) -> str:
        return self.describe()
