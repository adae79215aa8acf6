"""How two answers are compared, and where they differ, in words a failure message can use.

    differs(got, expected, EXACT)             -> None, or "different value at [2]"
    differs(got, expected, close(rel=1e-5))   -> tolerances for floats and float tensors
    beyond(got, expected, tolerance)          -> elementwise tolerances (one per value)

Values are plain, already decoded by the wire. An expected leaf may be a
``Digest`` (a fixed-input answer the handout keeps only a fingerprint of):
it matches a value the same way the live comparison would.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from grader.harness.digest import Digest
from grader.harness.schema import items, kind_of
from grader.harness.wire import Record


@dataclass(frozen=True)
class Compare:
    """How two answers are compared; ``describe`` is shown in failure messages."""

    rel: float = 0.0
    abs: float = 0.0

    @property
    def exact(self) -> bool:
        return self.rel == 0.0 and self.abs == 0.0

    def describe(self) -> str:
        if self.exact:
            return "compared exactly"
        parts = []
        if self.rel:
            parts.append(f"relative tolerance {self.rel:g}")
        if self.abs:
            parts.append(f"absolute tolerance {self.abs:g}")
        return "compared with " + " and ".join(parts)


EXACT = Compare()


def close(rel: float = 1e-9, abs: float = 0.0) -> Compare:  # noqa: A002
    return Compare(rel=rel, abs=abs)


def differs(got: Any, expected: Any, how: Compare = EXACT) -> str | None:
    """None if ``got`` equals ``expected`` under ``how``, else a short note on where they differ."""
    return _differs(got, expected, how, "")


def _at(path: str) -> str:
    return f" at {path}" if path else ""


def _type_differs(got: Any, expected: Any, path: str) -> str:
    """Plain words for a value of the wrong kind: what came back, what was expected."""
    return f"returned {kind_of(got)} where {kind_of(expected)} was expected{_at(path)}"


def _differs(got: Any, expected: Any, how: Compare, path: str) -> str | None:
    if isinstance(expected, Digest):
        return None if expected.matches(got) else f"different value{_at(path)}"
    if isinstance(expected, torch.Tensor):
        why = _tensor_differs(got, expected, how)
        return f"{why}{_at(path)}" if why else None
    if type(expected) is float or (type(expected) is int and type(got) is float):
        if type(got) not in (int, float):
            return _type_differs(got, expected, path)
        if math.isnan(expected) and math.isnan(got):
            return None
        if how.exact:
            return None if got == expected else f"different value{_at(path)}"
        try:
            ok = math.isclose(got, expected, rel_tol=how.rel, abs_tol=how.abs)
        except OverflowError:  # an int beyond any float: no float near it is the answer
            ok = False
        return None if ok else f"different value{_at(path)}"
    if type(expected) in (tuple, list):
        if type(got) is not type(expected):
            return _type_differs(got, expected, path)
        if len(got) != len(expected):
            return f"{items(len(got))} instead of {len(expected)}{_at(path)}"
        for i, (g, e) in enumerate(zip(got, expected)):
            why = _differs(g, e, how, f"{path}[{i}]")
            if why:
                return why
        return None
    if isinstance(expected, np.ndarray):
        if not isinstance(got, np.ndarray) or got.dtype != expected.dtype or got.shape != expected.shape:
            return f"different type, dtype or shape{_at(path)}"
        same = np.array_equal(got, expected) if how.exact else np.allclose(
            got, expected, rtol=how.rel, atol=how.abs, equal_nan=True)
        return None if same else f"different values{_at(path)}"
    if isinstance(expected, Record):
        if not isinstance(got, Record) or got.name != expected.name:
            return _type_differs(got, expected, path)
        for field, value in expected.fields:
            try:
                mine = got.get(field)
            except KeyError:
                return f"missing field {field}"
            why = _differs(mine, value, how, f"{path}.{field}" if path else field)
            if why:
                return why
        return None
    if type(expected) is dict:
        if type(got) is not dict:
            return _type_differs(got, expected, path)
        if set(got) != set(expected):
            return f"different keys{_at(path)}"
        for key, value in expected.items():
            why = _differs(got[key], value, how, f"{path}[{key!r}]")
            if why:
                return why
        return None
    if type(got) is not type(expected):
        return _type_differs(got, expected, path)
    return None if got == expected else f"different value{_at(path)}"


def _tensor_differs(got: Any, expected: torch.Tensor, how: Compare) -> str | None:
    if not isinstance(got, torch.Tensor):
        return f"returned {kind_of(got)} where a tensor was expected"
    if got.dtype != expected.dtype:
        return f"dtype {got.dtype} instead of {expected.dtype}"
    if got.shape != expected.shape:
        return f"shape {tuple(got.shape)} instead of {tuple(expected.shape)}"
    if got.numel() == 0:
        return None
    if how.exact or not expected.dtype.is_floating_point:
        if torch.equal(got, expected):
            return None
        bad = (got != expected).reshape(-1).nonzero()
        return f"{int(bad.numel())} of {got.numel()} values differ"
    if torch.equal(got, expected):  # one op where the tolerant check below takes ten
        return None
    g, e = got.to(torch.float64), expected.to(torch.float64)
    # as math.isclose: an infinity is close only to itself (rel * inf would let anything near it)
    ok = ((g - e).abs() <= how.abs + how.rel * e.abs()) & torch.isfinite(e)
    ok |= (g == e) | (torch.isnan(g) & torch.isnan(e))
    if bool(ok.all()):
        return None
    worst = int(torch.where(ok, 0.0, (g - e).abs().nan_to_num(math.inf)).reshape(-1).argmax())
    index = tuple(int(i) for i in np.unravel_index(worst, tuple(got.shape)))
    return (f"{int((~ok).sum())} of {got.numel()} values differ; "
            f"worst at {index}: {g.reshape(-1)[worst].item():.8g} vs {e.reshape(-1)[worst].item():.8g}")


def beyond(got: torch.Tensor, expected: torch.Tensor, tolerance: torch.Tensor) -> str | None:
    """Elementwise tolerances (one per value, e.g. an error bound that grows with the
    inputs): None if every value is within its own, else where the worst one is."""
    error = (got.double() - expected.double()).abs()
    bad = ~((error <= tolerance) | (got == expected))  # a NaN is never within; equal infinities are
    if not bool(bad.any()):
        return None
    worst = int(torch.where(bad, (error - tolerance).nan_to_num(math.inf), -math.inf).reshape(-1).argmax())
    index = tuple(int(i) for i in torch.unravel_index(torch.tensor(worst), got.shape))
    digits = 17 if expected.dtype == torch.float64 else 9  # enough to tell the two apart
    return (f"{int(bad.sum())} of {got.numel()} values differ; worst at {index}: "
            f"{got.reshape(-1)[worst].item():.{digits}g} vs {expected.reshape(-1)[worst].item():.{digits}g}")
