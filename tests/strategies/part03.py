"""Inputs for Part 3: parameter counts up to GPT-3 scale, recipes, dtypes, shapes.

Sizes mix small numbers (easy to check by hand), zeros, and the lecture's large
ones, so that an int overflow or a float that loses digits shows up.
"""

from __future__ import annotations

import torch
from hypothesis import strategies as st

from tests.strategies.part02 import OTHER_DTYPES

RECIPES = ["fp32_adamw", "bf16_mixed_adamw", "bf16_adamw", "fp32_sgd", "fp32_sgd_momentum"]
# beyond the floats: a byte count from torch.finfo's bits has no answer for ints and bool, and halves a complex;
# beyond the common ones: a table of those is not a dtype's bytes
DTYPES = [torch.float64, torch.float32, torch.bfloat16, torch.float16,
          torch.float8_e4m3fn, torch.int64, torch.int32, torch.int8, torch.bool, torch.complex64,
          torch.uint16, torch.uint32, torch.float8_e5m2, torch.float8_e8m0fnu]
ACTIVATION_DTYPES = [torch.float32, torch.bfloat16, torch.float16, torch.float64]

dtypes = st.one_of(st.sampled_from(DTYPES), st.sampled_from(OTHER_DTYPES))  # and every other dtype torch has

num_params = st.one_of(
    st.sampled_from([0, 1, 8256, 124_000_000, 7_000_000_000, 70_000_000_000, 175_000_000_000]),
    st.integers(0, 10**6),
    st.integers(0, 2 * 10**12),
)
ledger_cases = st.tuples(num_params, st.sampled_from(RECIPES))

byte_counts = st.one_of(st.just(0), st.integers(0, 10**4), st.integers(0, 10**13))
# a line left out is left to its default, 0 (as the docstring's MemoryLedger(parameters=4, ...) does)
ledger_fields = st.fixed_dictionaries({}, optional={
    "parameters": byte_counts, "master_parameters": byte_counts, "gradients": byte_counts,
    "optimizer_state": byte_counts, "activations": byte_counts,
})

hbm_bytes = st.one_of(
    st.integers(1, 16).map(lambda gpus: gpus * 80 * 10**9),  # whole 80 GB GPUs, as ints
    st.integers(1, 1024).map(lambda gpus: gpus * 80e9),
    st.integers(1, 10**15).map(float),  # whole bytes, as a float
)
bytes_per_param = st.one_of(st.sampled_from([2, 4, 6, 8, 12, 16, 18, 20]), st.floats(0.5, 64.0))
capacity_cases = st.tuples(hbm_bytes, bytes_per_param)

dims = st.one_of(st.sampled_from([0, 1, 64, 4096, 12288, 49152]), st.integers(0, 100_000))
matrix_cases = st.tuples(dims, dims, dtypes)


@st.composite
def kv_cache_cases(draw):
    """(num_layers, batch, seq_len, num_kv_heads, head_dim, dtype)."""
    small = st.integers(1, 128)
    return (draw(st.one_of(small, st.sampled_from([32, 80, 96]))),
            draw(st.one_of(st.just(1), small)),
            draw(st.one_of(st.sampled_from([1, 2048, 4096, 131072]), st.integers(1, 10**5))),
            draw(st.one_of(st.sampled_from([1, 8, 32]), small)),
            draw(st.sampled_from([64, 96, 128, 256, 7])),
            draw(st.sampled_from(ACTIVATION_DTYPES + [torch.float8_e4m3fn, torch.int8])))  # int8: a quantized cache


activation_cases = st.tuples(
    st.one_of(st.sampled_from([1, 32]), st.integers(1, 4096)),  # batch
    st.one_of(st.sampled_from([1, 64]), st.integers(1, 8192)),  # dim
    st.integers(0, 48),  # num_layers
    st.sampled_from(ACTIVATION_DTYPES),
)
