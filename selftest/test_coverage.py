"""Staff check: the public tests reach every rule the stubs' docstrings state, as students run them.

A public test that never draws the case a rule is about cannot catch a bug in
that rule: the bug passes at home and loses points in grading. For every rule a
docstring states, ``RULES`` says which test exercises it and how to tell an
example that does; the handout's recordings (what a student's ``pytest``
replays, explicit examples included) must exercise each rule in at least 5% of
that test's distinct examples (a rule about one single input, such as the 0-d
shape, at least once). The reference answers where a rule is about the answer
(a view that needs a copy).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Callable

import pytest
import torch

from grader.harness.cases import cases_of
from grader.harness.recording import Recording
from reference import dtypes, roofline, strides
from selftest.grading import handout

SHARE = 0.05
ONCE = "(once)"  # a rule whose case is a single input (the 0-d shape): present at all is all it can be
Rule = tuple[str, str, Callable[[dict[str, Any]], bool]]  # (test, the rule in words, does an example exercise it)


def _size_one_free(shape, stride_tuple) -> bool:
    """A size-1 dim whose stride is not the one a contiguous layout gives it."""
    row_major = torch.empty(shape).stride() if shape else ()
    return any(size == 1 and s != r for size, s, r in zip(shape, stride_tuple, row_major))


def _view(case):
    return strides.view_strides(*case)


def _scale_is_power_of_two(x: torch.Tensor, size: int) -> bool:
    blocks = [x[i: i + size] for i in range(0, x.numel(), size)]
    return any(b.abs().max() > 0 and math.frexp(float(b.abs().max()) / 6)[0] == 0.5 and
               any(math.isclose(abs(v) / (float(b.abs().max()) / 6), m) for v in b.tolist()
                   for m in (0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0)) for b in blocks)


P1, P2, P3, P4 = "test_part01_strides.py::", "test_part02_dtypes.py::", "test_part03_memory.py::", "test_part04_flops.py::"
P5, P6, P7 = "test_part05_roofline.py::", "test_part06_named.py::", "test_part07_gradients.py::"
P8, P9, P10 = "test_part08_model.py::", "test_part09_training.py::", "test_part10_mixed_precision.py::"

RULES: list[Rule] = [
    # Part 1: contiguous_strides, flat_index, is_contiguous, transpose, slice_view, view_strides
    (P1 + "test_contiguous_strides", "a size-0 dim counts as 1", lambda e: 0 in e["shape"]),
    (P1 + "test_contiguous_strides", "a 0-d shape " + ONCE, lambda e: e["shape"] == ()),
    (P1 + "test_contiguous_strides", "a size-1 dim", lambda e: 1 in e["shape"]),
    (P1 + "test_flat_index", "an offset", lambda e: len(e["case"]) == 3 and e["case"][2] > 0),
    (P1 + "test_flat_index", "the default offset", lambda e: len(e["case"]) == 2),
    (P1 + "test_is_contiguous", "size-1 dims may have any stride",
     lambda e: _size_one_free(*e["case"]) and strides.is_contiguous(*e["case"])),
    (P1 + "test_is_contiguous", "an empty tensor is contiguous", lambda e: 0 in e["case"][0]),
    (P1 + "test_is_contiguous", "a non-contiguous layout", lambda e: not strides.is_contiguous(*e["case"])),
    (P1 + "test_transpose", "negative dims", lambda e: min(e["case"][2:]) < 0),
    (P1 + "test_slice_view", "a negative start", lambda e: e["case"][4] < 0),
    (P1 + "test_slice_view", "a stop past the end (clamped)", lambda e: e["case"][5] > e["case"][0][e["case"][3]]),
    (P1 + "test_slice_view", "an empty result", lambda e: strides.slice_view(*e["case"])[0][e["case"][3]] == 0),
    (P1 + "test_slice_view", "a step above 1", lambda e: len(e["case"]) == 7 and e["case"][6] > 1),
    (P1 + "test_slice_view", "the default step", lambda e: len(e["case"]) == 6),
    (P1 + "test_view_strides", "a view that needs a copy (None)", lambda e: _view(e["case"]) is None),
    (P1 + "test_view_strides", "size-1 dims inside a mergeable chunk",
     lambda e: _size_one_free(*e["case"][:2]) and _view(e["case"]) is not None and len(e["case"][2]) < len(e["case"][0])),
    (P1 + "test_view_strides", "an empty tensor viewed", lambda e: 0 in e["case"][0]),
    (P1 + "test_view_strides", "dims merged", lambda e: _view(e["case"]) is not None and len(e["case"][2]) < len(
        [s for s in e["case"][0] if s != 1])),
    (P1 + "test_view_strides", "dims split", lambda e: len([s for s in e["case"][2] if s != 1]) > len(
        [s for s in e["case"][0] if s != 1])),
    (P1 + "test_view_strides", "viewed as its own shape " + ONCE, lambda e: tuple(e["case"][2]) == tuple(e["case"][0])),
    # Part 2
    (P2 + "test_format_limits", "an ieee layout", lambda e: e["layout"][2] == "ieee"),
    (P2 + "test_format_limits", "a nan_only layout", lambda e: e["layout"][2] == "nan_only"),
    (P2 + "test_format_limits", "a layout with no specials", lambda e: e["layout"][2] == "none"),
    (P2 + "test_bytes_per_element_and_nbytes", "a 0-d tensor", lambda e: e["case"][0] == ()),
    (P2 + "test_bytes_per_element_and_nbytes", "a size-0 dim", lambda e: 0 in e["case"][0]),
    (P2 + "test_underflows_to_zero", "exactly half the smallest subnormal (a tie)",
     lambda e: abs(e["case"][0]) == dtypes.format_limits(dtypes.float_format(e["case"][1])).smallest_subnormal / 2),
    (P2 + "test_underflows_to_zero", "a negative value", lambda e: e["case"][0] < 0),
    (P2 + "test_nvfp4_nbytes", "a short last block", lambda e: e["case"][0] % (e["case"][1] or 16) != 0),
    (P2 + "test_nvfp4_nbytes", "the default block size", lambda e: e["case"][1] is None),
    (P2 + "test_nvfp4_quantize", "exact ties in a block with a power-of-two scale",
     lambda e: _scale_is_power_of_two(e["case"][0], e["case"][1] or 16)),
    (P2 + "test_nvfp4_quantize", "an all-zero block",
     lambda e: any(not bool(b.any()) for b in e["case"][0].split(e["case"][1] or 16))),
    (P2 + "test_nvfp4_quantize", "a short last block", lambda e: e["case"][0].numel() % (e["case"][1] or 16) != 0),
    (P2 + "test_nvfp4_quantize", "a block size other than 16", lambda e: (e["case"][1] or 16) != 16),
    # Part 3
    (P3 + "test_kv_cache_bytes", "one KV head (multi-query)", lambda e: e["case"][3] == 1),
    (P3 + "test_cruncher_activation_bytes", "no hidden layer (the final layer alone)", lambda e: e["case"][2] == 0),
    (P3 + "test_ledger_total", "a line of 0 bytes", lambda e: 0 in e["fields"].values()),
    (P3 + "test_ledger_total", "a line left to its default", lambda e: len(e["fields"]) < 5),
    # Part 4
    (P4 + "test_count_matmul_flops_forward", "a batched matmul (bmm, baddbmm, 3-D or 4-D)",
     lambda e: any(op[0] in ("bmm", "baddbmm", "matmul3d", "matmul4d", "einsum bmk,bkn->bmn") for op in e["scenario"][0])),
    (P4 + "test_count_matmul_flops_forward", "an added term (addmm, baddbmm, a bias)",
     lambda e: any(op[0] in ("addmm", "baddbmm", "linear", "linear3d") for op in e["scenario"][0])),
    (P4 + "test_count_matmul_flops_backward", "only the second operand requires grad",
     lambda e: any(not op[2][0] and op[2][1] for op in e["scenario"][0])),
    (P4 + "test_count_matmul_flops_backward", "both operands require grad",
     lambda e: any(op[2][0] and op[2][1] for op in e["scenario"][0])),
    (P4 + "test_cruncher_flops", "the input requires grad", lambda e: len(e["case"]) == 4 and e["case"][3]),
    (P4 + "test_cruncher_flops", "no hidden layer", lambda e: e["case"][2] == 0),
    # Part 5
    (P5 + "test_promised_flops_per_sec", "an unknown device (ValueError)",
     lambda e: _raises(roofline.promised_flops_per_sec, *e["case"])),
    (P5 + "test_promised_flops_per_sec", "FP8 on the A100 (ValueError)",
     lambda e: "A100" in e["case"][0] and e["case"][1] == torch.float8_e4m3fn),
    (P5 + "test_roofline", "exactly at the ridge", lambda e: e["case"][0] * e["case"][2] == e["case"][1]),
    (P5 + "test_roofline", "compute-bound", lambda e: roofline.is_compute_bound(*e["case"])),
    (P5 + "test_roofline", "memory-bound", lambda e: not roofline.is_compute_bound(*e["case"])),
    (P5 + "test_matmul_arithmetic_intensity", "the default bytes per element", lambda e: len(e["case"]) == 3),
    # Part 6
    (P6 + "test_attention_scores", "seq_q differs from seq_k", lambda e: e["case"][0].shape[1] != e["case"][1].shape[1]),
    (P6 + "test_split_heads", "one head", lambda e: e["case"][1] == 1),
    (P6 + "test_merge_heads", "heads of one element", lambda e: e["x"].shape[3] == 1),
    # Part 7
    (P7 + "test_squared_error_grad", "float64 inputs", lambda e: e["case"][0].dtype == torch.float64),
    (P7 + "test_linear_backward_grad_w", "a non-square weight", lambda e: e["case"][1].shape[0] != e["case"][1].shape[1]),
    (P7 + "test_linear_backward_grad_x", "float64 inputs", lambda e: e["case"][0].dtype == torch.float64),
    # Part 8
    (P8 + "test_num_parameters", "biases", lambda e: e["module"][0] == "mlp" and e["module"][2]),
    (P8 + "test_num_parameters", "buffers that are not parameters", lambda e: e["module"][0] == "linear_batchnorm"),
    (P8 + "test_num_parameters", "one parameter shared by two layers", lambda e: e["module"][0] == "tied_embedding"),
    (P8 + "test_num_parameters", "a frozen parameter (requires_grad=False)",
     lambda e: e["module"][0] == "frozen_embedding"),
    (P8 + "test_cruncher_forward", "no hidden layer", lambda e: e["case"][1] == 0),
    (P8 + "test_cruncher_forward", "a batch of one", lambda e: e["case"][2] == 1),
    # Part 9
    (P9 + "test_get_batch", "a memory-mapped dataset", lambda e: e["case"][4]),
    (P9 + "test_get_batch", "a batch larger than the dataset (with replacement)", lambda e: e["case"][2] > e["case"][0]),
    (P9 + "test_train_trajectory", "several steps (zero_grad matters)", lambda e: e["case"][4] > 1),
    (P9 + "test_checkpoint_round_trip", "no hidden layer", lambda e: e["case"][1] == 0),
    # Part 10
    (P10 + "test_fp16_with_grad_scaler", "float16 gradients that underflow unscaled", lambda e: e["case"][9] == 12),
    (P10 + "test_fp16_with_grad_scaler", "scaled gradients that overflow",
     lambda e: e["case"][8] == 2.0**24 and e["case"][9] == 0),
    (P10 + "test_stepped_once_and_grads_cleared", "AdamW", lambda e: e["case"][4] == "adamw"),
    (P10 + "test_autocast_matmuls_in_bf16", "no hidden layer", lambda e: e["case"][3] == 0),
    (P10 + "test_autocast_matmuls_in_bf16", "the default dtype, device and scaler",
     lambda e: len(e["case"]) == 11 and e["case"][10]),
    (P10 + "test_loss_is_float32", "the default dtype, device and scaler", lambda e: len(e["case"]) == 11 and e["case"][10]),
]


def _raises(fn, *args) -> bool:
    try:
        fn(*args)
    except ValueError:
        return True
    return False


@pytest.fixture(scope="module")
def replayed() -> dict[str, list[dict[str, Any]]]:
    """Every public test's examples, as a student's run replays them (explicit ones first)."""
    import importlib

    recording = Recording.load(handout() / "tests" / "recorded")
    out = {}
    for test in {rule[0] for rule in RULES}:
        path, name = test.split("::")
        fn = getattr(importlib.import_module(f"tests.{Path(path).stem}"), name)
        out[test] = list(cases_of(fn).replayed(recording, test))
    return out


@pytest.mark.parametrize("test, rule, exercises", RULES, ids=[f"{r[0].split('::')[1]}: {r[1]}" for r in RULES])
def test_each_docstring_rule_is_drawn_often(replayed, test, rule, exercises):
    examples = replayed[test]
    count = sum(bool(exercises(e)) for e in examples)
    if rule.endswith(ONCE):
        assert count >= 1, f"{test}: no example exercises '{rule}'"
        return
    assert count / len(examples) >= SHARE, f"{test}: only {count / len(examples):.0%} of {len(examples)} distinct " \
                                           f"examples exercise '{rule}'"


def test_every_part_has_rules():
    assert {int(t[9:11]) for t, _, _ in RULES} == set(range(1, 11))
