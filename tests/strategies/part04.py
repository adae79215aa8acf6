"""Inputs for Part 4: matmul sizes, training budgets, Cruncher shapes, matmul scenarios.

A scenario for ``count_matmul_flops`` is plain data that the probe
``flops.count_scenario`` turns into a function: a list of ops
``(kind, dims, grads)`` and whether to run backward. ``kind`` names how the
matmul is written (``OPERANDS`` in ``grader/harness/probes/part04.py``),
``dims`` its sizes, ``grads`` which operands require grad (in the order a, b,
then the added term or bias if any). Sizes stay small: only the count matters.
"""

from __future__ import annotations

import inspect

from hypothesis import strategies as st

from grader.harness.probes.part04 import NO_GRAD, OPERANDS


def _arity(kind: str) -> tuple[int, int]:
    """(number of dims, number of tensor operands) of an op kind of the probe."""
    num_dims = len(inspect.signature(OPERANDS[kind]).parameters)
    return num_dims, len(OPERANDS[kind](*[1] * num_dims))


# small sizes, with 1 often: degenerate shapes are where counters go wrong
small = st.one_of(st.just(1), st.integers(1, 6))


@st.composite
def matmul_sizes(draw):
    """(m, k, n): mostly small, sometimes model-sized."""
    size = st.one_of(st.integers(0, 8), st.integers(1, 100_000))
    return draw(size), draw(size), draw(size)


@st.composite
def training_budgets(draw):
    """(num_params, num_tokens): ints or floats up to 70e9 params and 15e12 tokens."""
    params = st.one_of(st.integers(0, 70 * 10**9), st.floats(1e3, 70e9))
    tokens = st.one_of(st.integers(0, 15 * 10**12), st.floats(1e3, 15e12))
    return draw(params), draw(tokens)


@st.composite
def training_time_cases(draw):
    """(total_flops, num_gpus, peak_flops_per_sec, mfu) within the valid ranges."""
    total = draw(st.one_of(st.integers(0, 10**25), st.floats(1e15, 1e26)))
    gpus = draw(st.one_of(st.sampled_from([1, 8, 1024]), st.integers(1, 100_000)))
    peak = draw(st.one_of(st.sampled_from([19.5e12, 312e12, 989.5e12]), st.floats(1e12, 5e15)))
    mfu = draw(st.one_of(st.sampled_from([1.0, 0.5, 0.4]), st.floats(1e-3, 1.0)))
    return total, gpus, peak, mfu


@st.composite
def cruncher_cases(draw):
    """(batch, dim, num_layers[, input_requires_grad]); num_layers 0 is the final layer alone.

    Without the flag, the call relies on its default (False).
    """
    batch = draw(st.one_of(st.integers(1, 8), st.integers(1, 4096)))
    dim = draw(st.one_of(st.integers(1, 8), st.integers(1, 8192)))
    layers = draw(st.one_of(st.integers(0, 3), st.integers(0, 100)))
    flag = draw(st.sampled_from([(), (False,), (True,)]))
    return (batch, dim, layers, *flag)


@st.composite
def ops(draw, backward: bool):
    """One op ``(kind, dims, grads)``; grads are all False for a forward-only scenario."""
    kind = draw(st.sampled_from(sorted(OPERANDS)))
    num_dims, num_operands = _arity(kind)
    # einsum contracts a size-1 dim by a broadcast multiply, no matmul at all: keep sizes >= 2
    size = st.integers(2, 6) if kind.startswith("einsum") else small
    dims = tuple(draw(st.lists(size, min_size=num_dims, max_size=num_dims)))
    grads = tuple(draw(st.lists(st.booleans(), min_size=num_operands, max_size=num_operands))
                  if backward and kind not in NO_GRAD else [False] * num_operands)
    return kind, dims, grads


@st.composite
def forward_scenarios(draw):
    """(ops, backward=False, seed)."""
    return draw(st.lists(ops(False), min_size=1, max_size=4)), False, draw(st.integers(0, 2**16))


@st.composite
def backward_scenarios(draw):
    """(ops, backward=True, seed), at least one operand requiring grad."""
    chosen = draw(st.lists(ops(True), min_size=1, max_size=4))
    if not any(any(grads) for _, _, grads in chosen):
        if all(kind in NO_GRAD for kind, _, _ in chosen):
            chosen.append(("mm", (2, 3, 4), (False, False)))
        index = next(i for i, (kind, _, _) in enumerate(chosen) if kind not in NO_GRAD)
        kind, dims, grads = chosen[index]
        chosen[index] = (kind, dims, (True,) + grads[1:])
    return chosen, True, draw(st.integers(0, 2**16))
