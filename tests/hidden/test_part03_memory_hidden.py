"""Part 3, hidden — byte counts beyond float64's exact integers (assignment/memory.py).

The public sizes keep every byte count below 2**53, where a float64 still holds every
integer. Here parameter counts, matrix sides, KV-cache and Cruncher sizes give byte
counts mostly between 2**53 and 2**63: a count that went through a float (``bits / 8``,
``* 1.0``, ``math.pow``) comes out rounded. The spec asks for exact integers: compared
exactly, every function at every drawn size.

Every count stays below 2**63, on purpose. The handout teaches ``device="meta"``
tensors as a way to get a tensor's bytes, and their sizes are int64: beyond 2**63 such
an implementation raises where Python's ints would not, and no real memory budget is
that large (2**63 bytes are 8 EiB). FLOP counts of whole training runs do pass 2**63,
and Part 4's hidden test goes there.
"""

import torch
from hypothesis import strategies as st

from grader.harness import spec
from grader.harness.ask import ask
from grader.harness.cases import example, given
from grader.harness.counts import exactly
from grader.harness.probes.part03 import ledger_total
from grader.harness.schema import INT, Tuple
from tests.strategies import part03 as S

training_ledger = spec.function("memory.training_ledger")
matrix_bytes = spec.function("memory.matrix_bytes")
kv_cache_bytes = spec.function("memory.kv_cache_bytes")
cruncher_activation_bytes = spec.function("memory.cruncher_activation_bytes")

FLOAT64_EXACT = 2**53  # the first integer above it that a float64 cannot hold is 2**53 + 1


def beyond(low_bits: int, high_bits: int) -> st.SearchStrategy:
    """Integers from 2**low_bits to 2**high_bits, odd ones as often as even (what a float rounds)."""
    return st.integers(2**low_bits, 2**high_bits)


@st.composite
def huge_cases(draw):
    """One size for each function, its byte count mostly beyond 2**53 and always below 2**63."""
    return {
        "num_params": draw(beyond(50, 58)),  # 2**50 parameters already need 2**54 bytes in fp32 AdamW; 18 B/param
        "fields": draw(st.fixed_dictionaries({name: beyond(40, 60) for name in (
            "parameters", "master_parameters", "gradients", "optimizer_state", "activations")})),
        "matrix": (draw(beyond(26, 29)), draw(beyond(26, 29)), draw(S.dtypes)),  # at most 8 bytes an element
        "kv_cache": (draw(st.integers(32, 1024)), draw(beyond(8, 12)), draw(beyond(17, 20)),
                     draw(st.integers(1, 256)), draw(st.sampled_from([64, 96, 128, 256, 7])),
                     draw(st.sampled_from(S.ACTIVATION_DTYPES + [torch.float8_e4m3fn]))),
        "activations": (draw(beyond(20, 34)), draw(beyond(10, 16)), draw(st.integers(0, 1024)),
                        draw(st.sampled_from(S.ACTIVATION_DTYPES))),
    }


# 2**53 + 1 parameters; a 3**19-row matrix of 3**19 + 2 columns; a KV cache of odd sizes for a
# million sequences of a million tokens; a Cruncher of odd sizes: none of these is a float
ODD = {
    "num_params": FLOAT64_EXACT + 1,
    "fields": {"parameters": 2**58 + 1, "master_parameters": 2**59 + 3, "gradients": 2**60 + 5,
               "optimizer_state": 2**61 + 7, "activations": 3**36},
    "matrix": (3**19, 3**19 + 2, torch.float32),
    "kv_cache": (95, 10**6 + 3, 10**6 + 1, 95, 7, torch.float8_e4m3fn),
    "activations": (3**25, 12288 + 1, 95, torch.float16),
}


@given(case=huge_cases())
@example(case=ODD)
def test_byte_counts_beyond_float64(impl, oracle, case):
    """Every recipe at a huge parameter count, a ledger total of huge lines, and the three
    byte-count functions at huge sizes: exact integers."""
    for recipe in S.RECIPES:
        ask(impl, oracle, training_ledger, case["num_params"], recipe).same()
    ask(impl, oracle, ledger_total, case["fields"], returns=Tuple(INT, INT)).same()  # as built, then lines doubled
    for function, args in ((matrix_bytes, case["matrix"]), (kv_cache_bytes, case["kv_cache"]),
                           (cruncher_activation_bytes, case["activations"])):
        exactly(ask(impl, oracle, function, *args))
