"""Probes and judges: the typed questions a test asks, and where each is answered.

A **probe** is harness code that runs where the implementation runs (in this
process, or in a sandboxed worker). It builds what a scenario needs there (a
model, an optimizer, a file), calls the implementation's functions, and returns
plain data: the functions' results and the state they left in the harness's own
objects. Nothing else: a probe never judges, counts, times or hooks, because
anything observed in the implementation's process can be forged by the code
under test. (One probe alters a library for a call, ``probes/part06.py``: its
report can only fail a test, so forging it gains nothing.) A probe declares
its answer as a frozen dataclass (a ``Report``) that the wire carries; the
trusted side rebuilds it strictly, so a test reads fields, never keys, and a
report of the wrong shape is the implementation's fault, not a harness error.

    @probe(subject="training.load_checkpoint", process="separate")
    def load_checkpoint_file(impl, blob: bytes, ...) -> Restored: ...

    restored = impl.run(load_checkpoint_file, blob, ...)    # a Restored
    restored.params

A **judge** is a question for the trusted side: an expected value that is not a
reference function's answer (the band an NVFP4 value may round into), or the
harness's own measurement (a matmul's time, the CUDA allocator's bytes). Tests
import its declaration from here; its code is staff-only (``grader/judges``) and
runs in the grading process, or in a ``clean`` process where no submission ever
ran. The handout replays recorded judgements instead, and has no measurements.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import types
import typing
from dataclasses import dataclass
from typing import Any, Callable, Generic, Literal, TypeVar

import numpy as np
import torch

from grader.harness.transport import Process

R = TypeVar("R")
DEFAULT_TIMEOUT = 10.0
Kind = Literal["probe", "judge"]


class ArgumentChanged(Exception):
    """Raised by a probe: the implementation changed, in place, the tensor passed as argument ``index``."""

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.index = index


# --------------------------------------------------------------------------- reports
class ReportError(ValueError):
    """A report that does not have its declared shape."""


class Report:
    """Base of every probe's report: a frozen dataclass whose fields are plain data.

    Field annotations say what each field may hold (``Any`` for a value the
    implementation returned, to be checked by the test with a schema).
    """

    @classmethod
    def from_wire(cls: type[R], value: Any) -> R:
        """Rebuild a report from what the wire decoded, or raise ``ReportError``."""
        return _rebuild(cls, value, cls.__name__)


@functools.lru_cache(maxsize=None)
def _layout(cls: type) -> tuple[dict[str, Any], list[str]]:
    """A report class's field annotations and field names (read once per class)."""
    return typing.get_type_hints(cls), [f.name for f in dataclasses.fields(cls)]


def _rebuild(cls: type, value: Any, where: str) -> Any:
    from grader.harness.wire import Record

    if not isinstance(value, Record) or value.kind != "dataclass" or value.name != cls.__name__:
        raise ReportError(f"{where}: expected a {cls.__name__} report, got {_what(value)}")
    hints, fields = _layout(cls)
    if list(value.field_names()) != fields:
        raise ReportError(f"{where}: fields {list(value.field_names())} instead of {fields}")
    kwargs = {name: _field(value.get(name), hints[name], f"{where}.{name}") for name in fields}
    return cls(**kwargs)


def _field(value: Any, annotation: Any, where: str) -> Any:
    """``value`` checked against ``annotation`` (and rebuilt, for nested reports)."""
    if annotation is Any:
        return value
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        errors = []
        for option in typing.get_args(annotation):
            try:
                return _field(value, option, where)
            except ReportError as error:
                errors.append(str(error))
        raise ReportError(errors[0])
    if annotation is None or annotation is type(None):
        if value is None:
            return None
    elif isinstance(annotation, type) and issubclass(annotation, Report):
        return _rebuild(annotation, value, where)
    elif origin is tuple:
        args = typing.get_args(annotation)
        if type(value) is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return tuple(_field(v, args[0], f"{where}[{i}]") for i, v in enumerate(value))
            if len(args) == len(value):
                return tuple(_field(v, a, f"{where}[{i}]") for i, (v, a) in enumerate(zip(value, args)))
    elif origin is list:
        (item,) = typing.get_args(annotation)
        if type(value) is list:
            return [_field(v, item, f"{where}[{i}]") for i, v in enumerate(value)]
    elif origin is dict:
        key, item = typing.get_args(annotation)
        if type(value) is dict:
            return {_field(k, key, f"{where} key"): _field(v, item, f"{where}[{k!r}]") for k, v in value.items()}
    elif annotation is float:
        if type(value) in (int, float):
            return value
    elif annotation is torch.Tensor:
        if type(value) is torch.Tensor:
            return value
    elif annotation in (int, bool, str, bytes, torch.dtype, np.ndarray):
        if type(value) is annotation:
            return value
    else:
        raise TypeError(f"report field {where}: unsupported annotation {annotation!r}")
    raise ReportError(f"{where}: expected {_name(annotation)}, got {_what(value)}")


def _name(annotation: Any) -> str:
    return getattr(annotation, "__name__", None) or str(annotation)


def _what(value: Any) -> str:
    return type(value).__name__ if not hasattr(value, "name") else f"{type(value).__name__} {value.name}"


# --------------------------------------------------------------------------- probes and judges
@dataclass(frozen=True, eq=False)
class Probe(Generic[R]):
    """A question with a name on the wire, a subject for messages, and a declared answer."""

    name: str  # on the wire: "part09.checkpoint"
    subject: str  # the spec function a failure is reported against
    params: tuple[str, ...]  # argument names, to show a failing call's inputs
    report: type | None  # the Report subclass of the answer; None for any plain value
    kind: Kind = "probe"
    timeout: float = DEFAULT_TIMEOUT  # seconds, before the call's own alarm stops it
    process: Process = "main"
    batch: bool = True  # may be sent together with other questions (not a timed call)
    record: bool = True  # judges: deterministic, so the handout may replay a recording
    secret: Any = None  # fixed inputs: the handout keeps a digest of the answer (grader.harness.digest)
    doc: str = ""
    fn: Callable[..., Any] | None = None  # probes: the harness code; judges: set by grader.judges
    # what a failing call's inputs do not show, said after them: its arguments by name -> a sentence, or ""
    note: Callable[[dict[str, Any]], str] | None = None

    def implement(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """Give a judge its trusted-side code (``grader/judges`` does, staff side)."""
        if self.kind != "judge":
            raise TypeError(f"{self.name} is a probe: its code is where it is declared")
        object.__setattr__(self, "fn", fn)
        return fn

    def decode(self, value: Any) -> R:
        """The answer as the test reads it: the declared report, rebuilt and checked."""
        return value if self.report is None else self.report.from_wire(value)

    def __repr__(self) -> str:
        return f"<{self.kind} {self.name}>"


REGISTRY: dict[str, Probe] = {}


def _register(fn: Callable[..., Any], *, kind: Kind, skip: int, **options: Any) -> Probe:
    module = fn.__module__.rsplit(".", 1)[-1]
    name = options.pop("name", None) or f"{module}.{fn.__name__}"
    if name in REGISTRY:
        raise ValueError(f"{kind} {name!r} registered twice")
    hints = typing.get_type_hints(fn)
    returns = hints.get("return")
    report = returns if isinstance(returns, type) and issubclass(returns, Report) else None
    params = tuple(list(inspect.signature(fn).parameters)[skip:])
    made = Probe(name=name, params=params, report=report, kind=kind, doc=inspect.getdoc(fn) or "",
                 fn=fn if kind == "probe" else None, **options)
    for attribute in ("__module__", "__name__", "__qualname__", "__doc__"):  # help() shows the function
        object.__setattr__(made, attribute, getattr(fn, attribute))
    object.__setattr__(made, "__wrapped__", fn)
    REGISTRY[name] = made
    return made


def probe(*, subject: str, timeout: float = DEFAULT_TIMEOUT, process: Process = "main",
          batch: bool = True, secret: Any = None, name: str | None = None,
          note: Callable[[dict[str, Any]], str] | None = None):
    """Declare ``fn(impl, *args) -> Report`` as a probe run on the implementation's side. ``note``: what a
    failing call's inputs leave unsaid (a probe's flag that leaves arguments out of the call)."""

    def register(fn: Callable[..., R]) -> Probe[R]:
        return _register(fn, kind="probe", skip=1, subject=subject, timeout=timeout, process=process,
                         batch=batch, secret=secret, name=name, note=note)

    return register


def judge(*, subject: str, clean: bool = False, record: bool = True, timeout: float = 60.0,
          secret: Any = None, name: str | None = None):
    """Declare a trusted-side question ``fn(*args) -> Report``; its body is only documentation.

    ``clean``: answered in a process where no submission ever ran (the harness's own
    measurements), not in the grading process. ``record=False``: not deterministic
    (a measurement), so never recorded; the handout cannot answer it.
    """

    def register(fn: Callable[..., R]) -> Probe[R]:
        return _register(fn, kind="judge", skip=0, subject=subject, process="clean" if clean else "main",
                         record=record, timeout=timeout, batch=False, secret=secret, name=name)

    return register


def load_all() -> None:
    """Import every probe module, so that each registers its probes (a fork server does, once)."""
    import pkgutil

    import grader.harness.probes as package

    for info in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{package.__name__}.{info.name}")


def lookup(name: str) -> Probe | None:
    """The probe or judge of that wire name; its module (``partNN.``, ``calls.``) is imported on first use."""
    if name not in REGISTRY:
        module = name.partition(".")[0]
        if module.isidentifier():
            try:
                importlib.import_module(f"grader.harness.probes.{module}")
            except ImportError:
                return None
    return REGISTRY.get(name)
