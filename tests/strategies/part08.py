"""Inputs for Part 8: harness modules to count, Cruncher sizes, and initialisation shapes.

Small sizes for everything compared with the reference (any bug shows at once).
The statistical tests use big weight matrices instead, so that a wrong
initialisation stands many standard errors away from the right one; their
sizes are fixed by the error budgets in the tests.
"""

from __future__ import annotations

import math
import random

from hypothesis import strategies as st

seeds = st.integers(0, 2**32 - 1)
dims = st.integers(1, 12)

# a module the harness builds (grader.harness.probes.part08.harness_module), as plain data
harness_modules = st.one_of(
    st.tuples(st.just("mlp"), st.lists(dims, min_size=2, max_size=4).map(tuple), st.just(True)),
    st.tuples(st.just("mlp"), st.lists(dims, min_size=2, max_size=4).map(tuple), st.booleans()),
    st.tuples(st.just("deep_linear"), dims, st.integers(0, 4)),
    st.tuples(st.just("linear_batchnorm"), dims),
    st.tuples(st.just("tied_embedding"), st.integers(1, 20), dims),
    st.tuples(st.just("frozen_embedding"), st.integers(1, 20), dims),
    st.tuples(st.just("scaled_half"), dims),
)

# (dim, num_layers) of a Cruncher; no hidden layers at all is allowed
cruncher_sizes = st.tuples(st.integers(1, 16), st.integers(0, 4))

# (dim, num_layers, batch, seed)
forward_cases = st.tuples(st.integers(1, 16), st.integers(0, 4), st.integers(1, 8), seeds)

# weight matrices of at least INIT_COUNT elements, input_dim both smaller and larger than output_dim
INIT_COUNT = 2**19


@st.composite
def init_cases(draw):
    """(input_dim, output_dim, seed) with input_dim * output_dim >= INIT_COUNT; narrow layers too (input_dim
    from 1), where a std off by a small change of the fan-in (input_dim + 1) is far off."""
    input_dim = draw(st.one_of(st.integers(1, 16), st.integers(17, 4096)))
    return input_dim, math.ceil(INIT_COUNT / input_dim), draw(seeds)


# layers of under 512 weights (SMALL_LAYER): no statistic of one tells a wrong initialisation, so many are built
# and their weights pooled, SMALL_COUNT in all (a std within about ±3.5% at the tests' false-alarm rate)
SMALL_LAYER, SMALL_COUNT = 512, 2**14


def small_layer_shapes(seed: int) -> tuple[tuple[int, int], ...]:
    """(input_dim, output_dim) of layers of under SMALL_LAYER weights, SMALL_COUNT weights in all, from a seed
    (input_dim from 1 to 128, mostly under 32, so that a std scaled by anything but 1/sqrt(input_dim) shows)."""
    rng, shapes, total = random.Random(seed), [], 0
    while total < SMALL_COUNT:
        input_dim = rng.randint(1, 32) if rng.random() < 0.8 else rng.randint(33, 128)
        output_dim = rng.randint(1, (SMALL_LAYER - 1) // input_dim)
        shapes.append((input_dim, output_dim))
        total += input_dim * output_dim
    return tuple(shapes)


# (dim, num_layers, seed) of a Cruncher whose initialisation is checked: 2**18 weights a hidden layer,
# two of them (a scaling by depth shows), and a final layer of 512
cruncher_init_cases = st.tuples(st.just(512), st.just(2), seeds)

# (input_dim, output_dim): 2**16 weights each, widths from 64 to 1024 in both directions
SCALE_SHAPES = ((64, 1024), (128, 512), (512, 128), (1024, 64))
SCALE_BATCH = 1024

# (input_dim, output_dim, batch, seed)
scale_cases = st.tuples(st.sampled_from(SCALE_SHAPES), seeds).map(lambda c: (*c[0], SCALE_BATCH, c[1]))
