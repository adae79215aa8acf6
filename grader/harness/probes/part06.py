"""Probes for Part 6: calls checked against their jaxtyping annotations, and einops in use.

Every value probe calls the function through ``jaxtyped(typechecker=beartype)``,
as the course does, so annotations that disagree with the shapes actually passed
or returned fail the call. A failed check is not an exception the student's code
raised (the checker's frames are not the student's), so it comes back as plain
text, which the tests report as "failed its jaxtyping check".
"""

import functools
import sys
from typing import Any, Callable

import einops
import torch
from beartype import beartype
from beartype.roar import BeartypeException
from jaxtyping import TypeCheckError, jaxtyped

from grader.harness.impl import Implementation
from grader.harness.probes import probe

COUNTED = ("einsum", "rearrange")
ACCEPTED = "accepted"
CHECK_FAILED = (TypeCheckError, BeartypeException)


def _checked(impl: Implementation, name: str) -> Callable[..., Any]:
    return jaxtyped(impl.function(f"named.{name}"), typechecker=beartype)


def complaint(exc: BaseException) -> str:
    """The checker's message, cut to what matters: which value, its shape, its annotation, the axes."""
    text = str(exc)
    head, _, tail = text.partition("-" * 22)
    lines = [line.strip() for line in head.splitlines() if line.strip()]
    what, got, annotated = "", "", ""
    for line in lines:
        if line.startswith("Type-check error whilst checking the "):
            what = line.removeprefix("Type-check error whilst checking the ").split(" of ")[0]
        elif line.startswith("The problem arose whilst typechecking "):
            what = line.removeprefix("The problem arose whilst typechecking ").rstrip(".")
        elif line.startswith("Actual value: "):
            got = line.removeprefix("Actual value: ")
        elif line.startswith("Expected type: "):
            annotated = line.removeprefix("Expected type: ").rstrip(".")
            annotated = annotated.removeprefix("<class '").removesuffix("'>")
    if not (what and got and annotated):
        return (lines[0] if lines else type(exc).__name__)[:300]
    _, _, axes = tail.partition("are as follows.")
    bound = ", ".join(line.strip() for line in axes.splitlines() if line.strip())
    return f"{what} is {got}, annotated {annotated}" + (f" (axes so far: {bound})" if bound else "")


def _call_checked(impl: Implementation, name: str, *args: Any) -> Any:
    """The function's result, or the checker's complaint as a string."""
    try:
        return _checked(impl, name)(*args)
    except CHECK_FAILED as exc:
        return complaint(exc)


@probe("named.checked_attention_scores", subject="named.attention_scores")
def checked_attention_scores(impl: Implementation, q: torch.Tensor, k: torch.Tensor) -> Any:
    return _call_checked(impl, "attention_scores", q, k)


@probe("named.checked_split_heads", subject="named.split_heads")
def checked_split_heads(impl: Implementation, x: torch.Tensor, num_heads: int) -> Any:
    return _call_checked(impl, "split_heads", x, num_heads)


@probe("named.checked_merge_heads", subject="named.merge_heads")
def checked_merge_heads(impl: Implementation, x: torch.Tensor) -> Any:
    return _call_checked(impl, "merge_heads", x)


def _verdict(impl: Implementation, name: str, *args: Any) -> tuple[str, str]:
    """("accepted", "") or ("TypeCheckError", the checker's complaint) for a well-shaped call.

    Anything else the function raises propagates, as from any call: a stub's
    NotImplementedError reads as not implemented, a bug as the student's exception.
    """
    try:
        _checked(impl, name)(*args)
    except CHECK_FAILED as exc:
        return "TypeCheckError", complaint(exc)
    return ACCEPTED, ""


def _bad_verdict(impl: Implementation, name: str, *args: Any) -> tuple[str, str]:
    """The same for a badly shaped call, where the body failing by itself (no check
    stopped the call) is an answer too: the exception's type name."""
    try:
        return _verdict(impl, name, *args)
    except NotImplementedError:
        raise
    except Exception as exc:
        return type(exc).__name__, ""


@probe("named.annotation_verdicts", subject="named.attention_scores")
def annotation_verdicts(impl: Implementation, batch: int, seq_q: int, seq_k: int, heads: int,
                        dim: int) -> dict[str, tuple[str, str]]:
    """What the checker says about calls with right and wrong shapes (values do not matter)."""
    q = torch.ones(batch, seq_q, heads, dim)
    k = torch.ones(batch, seq_k, heads, dim)
    x = torch.ones(batch, seq_q, heads * dim)
    split = torch.ones(batch, heads, seq_q, dim)
    return {
        # well-shaped calls first: a stub stops here, as not implemented
        "attention_scores": _verdict(impl, "attention_scores", q, k),
        "split_heads": _verdict(impl, "split_heads", x, heads),
        "merge_heads": _verdict(impl, "merge_heads", split),
        "attention_scores 3-D q": _bad_verdict(impl, "attention_scores", q[0], k),
        "attention_scores batch mismatch": _bad_verdict(
            impl, "attention_scores", q, torch.ones(batch + 1, seq_k, heads, dim)),
        "split_heads 2-D x": _bad_verdict(impl, "split_heads", x[0], heads),
        "merge_heads 3-D x": _bad_verdict(impl, "merge_heads", split[0]),
    }


def _owned(impl: Implementation, module: Any) -> bool:
    """Whether a loaded module is one of the implementation's files (a cheap test first:
    resolving the path of each of the thousands of loaded modules is slow)."""
    filename = getattr(module, "__file__", None)
    return (isinstance(filename, str) and impl.package_dir.name in filename
            and impl.owns(filename))


@probe("named.einops_calls", subject="named.attention_scores")
def einops_calls(impl: Implementation, q: torch.Tensor, k: torch.Tensor, x: torch.Tensor,
                 num_heads: int, split: torch.Tensor) -> dict[str, dict[str, int]]:
    """How many times each function calls ``einops.einsum`` and ``einops.rearrange``.

    Both names are swapped for counting wrappers in the ``einops`` package and in
    every module of the implementation that bound them (``from einops import
    rearrange``), then put back. einops's own internal calls are not counted.
    """
    impl.module("named")  # imported first, so its globals can be patched
    tally = dict.fromkeys(COUNTED, 0)

    def counting(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(original)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            tally[name] += 1
            return original(*args, **kwargs)
        return wrapper

    wrappers = [(getattr(einops, name), counting(name, getattr(einops, name))) for name in COUNTED]
    owned = [m for m in list(sys.modules.values()) if _owned(impl, m)]
    patched = []  # (module, attribute, original)
    try:
        for module in [einops, *owned]:
            for attribute, value in list(vars(module).items()):
                for original, wrapper in wrappers:
                    if value is original:
                        patched.append((module, attribute, original))
                        setattr(module, attribute, wrapper)
        counts = {}
        for name, args in (("attention_scores", (q, k)), ("split_heads", (x, num_heads)),
                           ("merge_heads", (split,))):
            tally.update(dict.fromkeys(COUNTED, 0))
            impl.function(f"named.{name}")(*args)
            counts[name] = dict(tally)
        return counts
    finally:
        for module, attribute, original in reversed(patched):
            setattr(module, attribute, original)
