"""Part 2, hidden — NVFP4 where rounding is decided (assignment/dtypes.py).

Blocks whose scale is a power of two put x / scale exactly on the midpoints
between E2M1 values, where the tie must go to the even mantissa bit; with them
come all-zero blocks, a short last block and block sizes other than 16.
Compared as in the public test (``check_nvfp4_quantize``).
"""

import torch
from grader.harness.cases import example, given
from tests.strategies import part02 as S
from tests.test_part02_dtypes import check_nvfp4_quantize


@given(case=S.tie_and_short_block_cases())
@example(case=(torch.tensor([6.0, 0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, -5.0, -0.25]), 8))
@example(case=(torch.tensor([0.0, 0.0, 0.0, 3.0, 1.25]), 3))
def test_nvfp4_quantize_ties_and_short_blocks(impl, oracle, case):
    check_nvfp4_quantize(impl, oracle, *case)
