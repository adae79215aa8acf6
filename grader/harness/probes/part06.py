"""Probes for Part 6: the named functions called with einops' results doubled.

Whether a function uses einops is read from its source; a call of einops in a branch that never
runs reads as a use all the same, and so does a call whose result is thrown away (einops on an empty
slice, the answer made with permute), or only added to an answer made another way (einops of a zero
token). So a function is also called with every result einops hands back doubled: an answer that
einops makes grows by a power of two (one per einops step it went through: doubling is exact in
floating point and commutes with the scale and any rearrangement), while one that does not move, or
moves some other way, was not made by einops. An einops step that hands its input back as it was (an
identity pattern, put there to be doubled) makes nothing: it is neither doubled nor kept. What the last
einops steps were given (but what an earlier einops step made) is reported too: an answer made another
way and then passed through einops (flattened and reshaped back) was handed to einops whole. Like every
probe this one reports what happened and nothing else (the test judges it), and its report can only
fail the test, never pass it: code that notices the doubling and undoes it is back where the reading
alone leaves it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grader.harness.impl import Implementation
from grader.harness.probe import Report, probe


class _Backend:
    """A backend of einops whose einsum's result goes through ``then``; anything else is the real one's."""

    def __init__(self, real: Any, then: Any, given: Any) -> None:
        self.real, self.then, self.given = real, then, given

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def einsum(self, pattern: str, *tensors: Any) -> Any:
        out = self.real.einsum(pattern, *tensors)
        if len(tensors) == 1 and _unchanged(tensors[0], out):
            return out
        self.given(tensors)
        return self.then(out)


def _unchanged(tensor: Any, out: Any) -> bool:
    """Whether an einops step handed its one input back as it was: the same shape with no axis of size 1
    (where a pattern that moves axes may leave the data where it was) and the same values. An identity
    pattern (``"b h s t -> b h s t"``) makes nothing: its result is neither doubled nor kept."""
    import torch

    return type(tensor) is torch.Tensor and type(out) is torch.Tensor and out.shape == tensor.shape \
        and 1 not in tensor.shape and torch.equal(out, tensor)


def _scaled(made: Any, tensor: Any) -> bool:
    """Whether ``tensor`` is ``made`` (an einops result) times a number, value for value in their order."""
    import torch

    if made.numel() != tensor.numel() or made.numel() == 0 or not tensor.is_floating_point():
        return False
    r, t = made.reshape(-1).double(), tensor.reshape(-1).double()
    norm = float(r @ r)
    if not (norm > 0 and bool(torch.isfinite(r).all()) and bool(torch.isfinite(t).all())):
        return False
    return bool(torch.allclose(t, float(r @ t) / norm * r, rtol=2.0 ** -7, atol=0.0))


@dataclass(frozen=True)
class Doubled(Report):
    """What ``function(*args)`` returned as einops is, and with einops' results doubled (each, if it
    raised, the name of the exception); and what einops returned in the plain call, raw, in order (its
    last results of at most the answer's size, ``KEPT_RESULTS`` answers' worth): the test asks whether the
    answer is made of them."""

    plain: Any
    doubled: Any
    results: Any  # a tuple of tensors
    inputs: Any  # a tuple of tensors: what the plain call's last einops steps were given (``KEPT_INPUTS``)
    arities: Any  # a tuple of ints: how many tensors each of the plain call's einops steps was given, in order


KEPT_RESULTS = 4
# the inputs of the plain call's last einops steps kept, each a whole number of answers' size: the test asks
# whether one of them already was the answer (made another way, then handed to einops to be passed through)
KEPT_INPUTS = 16


def _answer(fn: Any, args: tuple) -> Any:
    try:
        return fn(*args)
    except Exception as error:  # noqa: BLE001 - whatever it raised, it did not answer
        return type(error).__name__


@probe(subject="named.einops")  # a module read by its source: answered where named.py was imported alone
def einops_doubled(impl: Implementation, function: str, doubled_first: bool, *args: Any) -> Doubled:
    """``function(*args)`` as einops is, and again with every result of einops.einsum, rearrange, reduce
    and repeat doubled (all of them go through ``einops.einops``' get_backend and _apply_recipe, looked
    up at call time: whatever name a submission calls einops by); the doubled call first or second as
    the test drew it, so that no answer can be told by its place. The plain call's einops results are
    kept (``Doubled.results``), and what its last einops steps were given (``Doubled.inputs``)."""
    import einops.einops as inner
    import torch

    fn = impl.function(function)
    results: list = []
    inputs: list = []
    arities: list = []

    def given(tensors: Any) -> None:
        # what einops made in an earlier step, scaled or not, is einops' (a last step that only regroups axes,
        # "(b h) i j -> b h i j", is handed einops' own scores): only what came from elsewhere is kept
        inputs.extend(t.detach().clone() for t in tensors if type(t) is torch.Tensor
                      and not any(_scaled(r, t.detach()) for r in results))
        del inputs[:-64]
        arities.append(sum(type(t) is torch.Tensor for t in tensors))
        del arities[:-64]

    def keep(out: Any) -> Any:
        if type(out) is torch.Tensor:
            results.append(out.detach().clone())
            del results[:-64]  # what a long loop of einops calls made, the last of it
        return out

    def call(then: Any, note: Any = lambda tensors: None) -> Any:
        get_backend, apply_recipe = inner.get_backend, inner._apply_recipe
        inner.get_backend = lambda tensor: _Backend(get_backend(tensor), then, note)

        def recipe(backend: Any, *rest: Any, **named: Any) -> Any:
            out = apply_recipe(backend, *rest, **named)
            tensor = rest[1] if len(rest) > 1 else named.get("tensor")
            if _unchanged(tensor, out):
                return out  # (an identity step, a check of the shape: neither doubled, kept nor noted)
            note((tensor,))
            return then(out)

        inner._apply_recipe = recipe
        try:
            return _answer(fn, args)
        finally:
            inner.get_backend, inner._apply_recipe = get_backend, apply_recipe

    def doubled() -> Any:
        return call(lambda out: out * 2)

    moved = doubled() if doubled_first else None
    plain = call(keep, given)
    if not doubled_first:
        moved = doubled()
    size = plain.numel() if type(plain) is torch.Tensor else -1
    kept: list = []  # the last results of at most the answer's size, at most KEPT_RESULTS answers' worth
    for result in reversed(results):
        if 0 < result.numel() <= size:
            if sum(r.numel() for r in kept) + result.numel() > KEPT_RESULTS * size:
                break
            kept.insert(0, result)
    fed: list = []  # the last inputs of a whole number of answers' size, at most KEPT_INPUTS answers' worth
    for tensor in reversed(inputs):
        if size > 0 and tensor.numel() % size == 0 and tensor.numel() > 0:
            if sum(t.numel() for t in fed) + tensor.numel() > KEPT_INPUTS * size:
                break
            fed.insert(0, tensor)
    return Doubled(plain, moved, tuple(kept), tuple(fed), tuple(arities))
