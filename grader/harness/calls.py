"""Run one probe against an implementation and report what happened as plain data.

This is the code on the implementation's side of the door (in this process, or
in the isolated worker). Its answer is a dict that crosses the wire:

    {"status": "ok", "value": ...}
    {"status": "not_implemented", "function": "strides.view_strides"}
    {"status": "raised", "function": ..., "exc_type": ..., "message": ..., "where": ...}
    {"status": "import_error" | "missing", "function": ..., "message": ...}
    {"status": "harness_error", "function": ..., "message": <traceback>}

The trusted side turns it into a value or one of ``grader.harness.faults``.
"""

from __future__ import annotations

import traceback
from pathlib import Path
from typing import Any, Callable

from grader.harness import faults
from grader.harness.impl import Implementation, LoadError, _safe_str
from grader.harness.probes import PROBES
from grader.harness.torchstate import pristine


def run_probe(impl: Implementation, name: str, args: tuple) -> dict[str, Any]:
    probe = PROBES.get(name)
    if probe is None:
        return {"status": "harness_error", "function": name, "message": f"no probe named {name!r}"}
    subject = args[0] if name in ("call", "constant") and args and isinstance(args[0], str) else probe.subject
    try:
        with pristine():
            value = probe.fn(impl, *args)
    except LoadError as exc:
        status = "import_error" if exc.kind == "import" else "missing"
        return {"status": status, "function": subject, "message": exc.detail}
    except NotImplementedError as exc:
        where = _innermost(impl, exc)
        function = _function_at(impl, where) if where else subject
        return {"status": "not_implemented", "function": function or subject}
    except (Exception, SystemExit, GeneratorExit) as exc:
        where = _innermost(impl, exc)
        if where is None:
            text = "".join(traceback.format_exception(exc))[-4000:]
            return {"status": "harness_error", "function": subject, "message": text}
        frame, _ = where
        message = "called sys.exit()" if isinstance(exc, SystemExit) else _safe_str(exc)
        return {
            "status": "raised",
            "function": subject,
            "exc_type": type(exc).__name__,
            "message": message,
            "where": f"{impl.relative(frame.filename)}:{frame.lineno} in {frame.name}",
        }
    return {"status": "ok", "value": value}


def _innermost(impl: Implementation, exc: BaseException):
    """The deepest traceback frame in the implementation's own files, as (summary, qualname)."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if impl.owns(code.co_filename):
            summary = traceback.FrameSummary(code.co_filename, tb.tb_lineno, code.co_name, lookup_line=False)
            found = (summary, getattr(code, "co_qualname", code.co_name))
        tb = tb.tb_next
    return found


def _function_at(impl: Implementation, where) -> str:
    """``module.function``, or ``module.Class.method`` for a method or property."""
    frame, qualname = where
    return f"{Path(frame.filename).stem}.{qualname}"


def raise_for(outcome: Any, describe_inputs: Callable[[], str]) -> Any:
    """Trusted side: the value of an ``ok`` outcome, else the matching fault.

    ``describe_inputs`` renders the call's arguments; it runs only on failure.
    """
    if type(outcome) is not dict or outcome.get("status") not in _STATUSES:
        raise faults.HarnessFault("door", f"malformed answer from the implementation's side: {outcome!r:.200}")
    status = outcome["status"]
    function = _text(outcome.get("function"))
    if status == "ok":
        return outcome.get("value")
    inputs = describe_inputs()
    if status == "not_implemented":
        raise faults.NotImplementedFault(function)
    if status == "import_error":
        raise faults.ImportFault(function, _text(outcome.get("message")))
    if status == "missing":
        raise faults.MissingFault(function, _text(outcome.get("message")))
    if status == "raised":
        raise faults.StudentRaised(
            function,
            _text(outcome.get("exc_type")),
            _text(outcome.get("message")),
            _text(outcome.get("where")),
            inputs,
        )
    raise faults.HarnessFault(function, _text(outcome.get("message")), inputs)


_STATUSES = frozenset(["ok", "not_implemented", "import_error", "missing", "raised", "harness_error"])


def _text(value: Any) -> str:
    return value[:4000] if type(value) is str else ""
