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
way and then passed through einops (flattened and reshaped back) was handed to einops whole. And a third
call doubles only the einops steps handed the call's own inputs (their values, scaled, cast, sliced or
moved: ``_handed_the_inputs``): an answer einops makes of q and k (of x) doubles with them, while one made
another way and handed to einops in pieces (two masked halves an einsum adds back up) does not. Like every
probe this one reports what happened and nothing else (the test judges it), and its report can only
fail the test, never pass it: code that notices the doubling and undoes it is back where the reading
alone leaves it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grader.harness import adapters
from grader.harness.impl import Implementation
from grader.harness.probe import Report, probe


def _backend(real: Any, step: Any) -> Any:
    """A stand-in for einops' backend whose einsum's result goes through ``step(out, tensors)``; anything else
    is the real one's. The step lives in this closure, never in an attribute: code that holds the stand-in
    (``einops.einops.get_backend(x)``) can call its einsum, which runs the real one on what it is handed, but
    cannot hand the step a result of its own as einops' (the reading refuses ``__closure__``)."""

    class Backend:
        __slots__ = ()

        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        def einsum(self, pattern: str, *tensors: Any) -> Any:
            out = real.einsum(pattern, *tensors)
            with adapters.unseen_by_modes():  # (the probe's own ops: no mode of the submission's sees them)
                if len(tensors) == 1 and _unchanged(tensors[0], out):
                    return out
                return step(out, tensors)

    return Backend()


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


# what a value may be off by and still be an input's times the factor: a few roundings of the coarser dtype
# (a scale applied in float32 rounds once; a bfloat16 one, to 2**-8)
HELD_RTOL_EPS = 16
_SPREAD = 64  # the values a factor is first tried on (the largest among them), before all of them


def _handed_the_inputs(tensors: Any, sources: Any) -> bool:
    """Whether an einops step was handed the call's own inputs: every tensor it was given holds values of the
    inputs (``_holds_values_of``) or is a pattern (``_pattern``: a scale handed in as a tensor, an identity
    matrix, a diagonal of scales, a mask), and one of them at least holds the inputs'. What einops makes of q
    and k (of x), however they were scaled, cast, sliced or moved first, is such a step; scores made another way
    and handed in (whole, or as parts to add up) are not."""
    import torch

    held = False
    for tensor in tensors:
        if type(tensor) is not torch.Tensor:
            continue
        if _holds_values_of(tensor, sources):
            held = True
        elif not _pattern(tensor):
            return False
    return held


def _pattern(tensor: Any) -> bool:
    """Whether ``tensor`` holds one value throughout, or one value and zeros: it carries where, never what (no
    answer's values travel in it)."""
    if tensor.numel() == 0:
        return False
    values = tensor.detach().reshape(-1).unique()
    return values.numel() == 1 or (values.numel() == 2 and bool((values == 0).any()))


def _holds_values_of(tensor: Any, sources: Any) -> bool:
    """Whether each of ``tensor``'s values is one of the ``sources``' values times one constant factor (any
    number of times, in any order): their magnitudes, each within a few roundings of one of theirs."""
    import torch

    if not tensor.is_floating_point() or tensor.numel() == 0 or not sources:
        return False
    values = tensor.detach().reshape(-1).abs().double()
    known = torch.cat([s.detach().reshape(-1).abs().double() for s in sources]).unique()  # sorted
    if not (bool(torch.isfinite(values).all()) and bool(torch.isfinite(known).all())):
        return False
    rtol = HELD_RTOL_EPS * max([torch.finfo(tensor.dtype).eps] + [torch.finfo(s.dtype).eps for s in sources])
    top = values.max()
    if top == 0:
        return bool(known[0] == 0)
    factors = top / known[known > 0]  # the largest value is one of the inputs' times one of these

    def fits(factors: Any, values: Any) -> Any:
        """For each factor: whether every value, divided by it, is one of ``known`` (within rtol)."""
        scaled = values[None, :] / factors[:, None]
        at = torch.searchsorted(known, scaled).clamp(1, known.numel() - 1) if known.numel() > 1 \
            else torch.zeros_like(scaled, dtype=torch.long)
        nearest = torch.minimum((scaled - known[at]).abs(), (scaled - known[(at - 1).clamp(min=0)]).abs())
        return (nearest <= rtol * scaled).all(dim=1)

    spread = values[torch.linspace(0, values.numel() - 1, min(_SPREAD, values.numel())).long()]
    factors = factors[fits(factors, spread)]
    return bool(factors.numel()) and bool(fits(factors, values).any())


@dataclass(frozen=True)
class Doubled(Report):
    """What ``function(*args)`` returned as einops is, with einops' results doubled, and with only the results
    of the steps handed its own tensors doubled (each, if it raised, the name of the exception); and what
    einops returned in the plain call, raw, in order (its last results of at most the answer's size,
    ``KEPT_RESULTS`` answers' worth): the test asks whether the answer is made of them."""

    plain: Any
    doubled: Any
    results: Any  # a tuple of tensors
    inputs: Any  # a tuple of tensors: what the plain call's last einops steps were given (``KEPT_INPUTS``)
    arities: Any  # a tuple of ints: how many tensors each of the plain call's einops steps was given, in order
    tied: Any  # the answer with only the steps handed the call's own tensors doubled
    tied_results: Any  # a tuple of tensors: what those steps (or steps handed their results) returned in the plain
    # call, as ``results``


KEPT_RESULTS = 4
# the inputs of the plain call's last einops steps kept, each a whole number of answers' size: the test asks
# whether one of them already was the answer (made another way, then handed to einops to be passed through)
KEPT_INPUTS = 16


def _answer(fn: Any, args: tuple) -> Any:
    try:
        return fn(*args)
    except Exception as error:  # noqa: BLE001 - whatever it raised, it did not answer
        return type(error).__name__


CALLS = ("plain", "doubled", "tied")  # the three calls, made in the order the test draws


@probe(subject="named.einops")  # a module read by its source: answered where named.py was imported alone
def einops_doubled(impl: Implementation, function: str, order: tuple, *args: Any) -> Doubled:
    """``function(*args)`` as einops is; again with every result of einops.einsum, rearrange, reduce
    and repeat doubled (all of them go through ``einops.einops``' get_backend and _apply_recipe, looked
    up at call time: whatever name a submission calls einops by); and again with only the results of the
    steps handed the call's own tensors doubled (``_handed_the_inputs``). The three calls are made in the
    ``order`` the test drew (a permutation of ``CALLS``), so that no answer can be told by its place. The
    plain call's einops results are kept (``Doubled.results``), and what its last einops steps were given
    (``Doubled.inputs``)."""
    import einops.einops as inner
    import torch

    fn = impl.function(function)
    sources = [a.detach().clone() for a in args if type(a) is torch.Tensor]
    results: list = []
    tied_results: list = []
    inputs: list = []
    arities: list = []

    def plain_step(out: Any, tensors: tuple) -> Any:
        # what einops made in an earlier step, scaled or not, is einops' (a last step that only regroups axes,
        # "(b h) i j -> b h i j", is handed einops' own scores): only what came from elsewhere is kept
        inputs.extend(t.detach().clone() for t in tensors if type(t) is torch.Tensor
                      and not any(_scaled(r, t.detach()) for r in results))
        del inputs[:-64]
        arities.append(sum(type(t) is torch.Tensor for t in tensors))
        del arities[:-64]
        if type(out) is torch.Tensor:
            results.append(out.detach().clone())
            del results[:-64]  # what a long loop of einops calls made, the last of it
            # handed the inputs, or what such a step returned (an einsum's products a reduce then sums)
            if _handed_the_inputs(tensors, sources + tied_results):
                tied_results.append(results[-1])
                del tied_results[:-64]
        return out

    def call(step: Any) -> Any:
        get_backend, apply_recipe = inner.get_backend, inner._apply_recipe
        inner.get_backend = lambda tensor: _backend(get_backend(tensor), step)

        def recipe(backend: Any, *rest: Any, **named: Any) -> Any:
            out = apply_recipe(backend, *rest, **named)
            tensor = rest[1] if len(rest) > 1 else named.get("tensor")
            # the probe's own ops (a clone kept, a value compared, a result doubled) run unseen by any mode the
            # submission entered around its call: one watching a tiny einops step of its own told the probe's
            # three calls from a plain one by them, and used einops only then (red team)
            with adapters.unseen_by_modes():
                if _unchanged(tensor, out):
                    return out  # (an identity step, a check of the shape: neither doubled, kept nor noted)
                return step(out, (tensor,))

        inner._apply_recipe = recipe
        try:
            return _answer(fn, args)
        finally:
            inner.get_backend, inner._apply_recipe = get_backend, apply_recipe

    steps = {"plain": plain_step,
             "doubled": lambda out, tensors: out * 2,
             "tied": lambda out, tensors: out * 2 if _handed_the_inputs(tensors, sources) else out}
    if type(order) is not tuple or sorted(order) != sorted(CALLS):
        raise ValueError(f"order must be a permutation of {CALLS}, not {order!r}")
    answers = {name: call(steps[name]) for name in order}
    plain = answers["plain"]
    size = plain.numel() if type(plain) is torch.Tensor else -1

    def last(made: list) -> tuple:
        """The last results of at most the answer's size, at most KEPT_RESULTS answers' worth."""
        kept: list = []
        for result in reversed(made):
            if 0 < result.numel() <= size:
                if sum(r.numel() for r in kept) + result.numel() > KEPT_RESULTS * size:
                    break
                kept.insert(0, result)
        return tuple(kept)

    fed: list = []  # the last inputs of a whole number of answers' size, at most KEPT_INPUTS answers' worth
    for tensor in reversed(inputs):
        if size > 0 and tensor.numel() % size == 0 and tensor.numel() > 0:
            if sum(t.numel() for t in fed) + tensor.numel() > KEPT_INPUTS * size:
                break
            fed.insert(0, tensor)
    return Doubled(plain, answers["doubled"], last(results), tuple(fed), tuple(arities), answers["tied"],
                   last(tied_results))
