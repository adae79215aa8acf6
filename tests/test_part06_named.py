"""Part 6 — einops and jaxtyping (assignment/named.py).

Every call goes through ``jaxtyped(typechecker=beartype)`` (see the Part 6 probes),
so a result whose shape contradicts the annotations fails as surely as a wrong value.
split_heads and merge_heads only move numbers around: compared exactly.
attention_scores sums ``dim`` products, and float32 sums may round differently in a
different order: each score is compared within 4·(dim+2)·eps·S + tiny, where
S = sum |q|·|k| / sqrt(dim) is the largest the rounding error could scale with and eps
is float32's 1.19e-07. Any correct formula is within a few roundings per term; a wrong
scale (1/dim, none) or a wrong pair of axes is off by far more.
"""

import math

import torch
from hypothesis import example, given, settings

from grader.harness.door import describe_call
from grader.harness.expect import EXACT, INT, STR, Dict, Tensor, Tuple, ask, beyond, check, differs, require
from grader.harness.faults import Mismatch
from grader.harness.oracle import cases
from tests.strategies import part06 as S

F32 = torch.finfo(torch.float32)
ATTENTION_TOLERANCE = "compared elementwise within 4·(dim+2)·eps·sum(|q|·|k|)/sqrt(dim), eps of float32"


def ask_checked(impl, oracle, probe, function, *args, returns):
    """(returned, expected, inputs) of a checked call; the returned value must pass the
    jaxtyping check and fit ``returns``."""
    got, expected, inputs = ask(impl, oracle, probe, *args)
    if isinstance(got, str):
        raise Mismatch(function, f"failed its jaxtyping check: {got}", inputs=inputs, show_values=False)
    check(got, returns, function, inputs)
    return got, expected, inputs


@given(case=cases("named.attention_scores", S.attention_cases()))
@example(case=(torch.ones(2, 3, 8, 64), torch.ones(2, 3, 8, 64)))
def test_attention_scores(impl, oracle, case):
    q, k = case
    batch, seq_q, heads, dim = q.shape
    got, expected, inputs = ask_checked(
        impl, oracle, "named.checked_attention_scores", "named.attention_scores", q, k,
        returns=Tensor(torch.float32, (batch, heads, seq_q, k.shape[1])))
    scale = torch.einsum("bihd,bjhd->bhij", q.double().abs(), k.double().abs()) / math.sqrt(dim)
    why = beyond(got, expected, 4 * (dim + 2) * (F32.eps * scale + F32.tiny))
    if why:
        raise Mismatch("named.attention_scores", f"wrong value: {why}", inputs=inputs, got=got,
                       expected=expected, how=ATTENTION_TOLERANCE)


@given(case=cases("named.split_heads", S.split_cases()))
@example(case=(torch.arange(12.0).reshape(1, 2, 6), 2))
def test_split_heads(impl, oracle, case):
    x, num_heads = case
    batch, seq, model = x.shape
    got, expected, inputs = ask_checked(
        impl, oracle, "named.checked_split_heads", "named.split_heads", x, num_heads,
        returns=Tensor(torch.float32, (batch, num_heads, seq, model // num_heads)))
    why = differs(got, expected, EXACT)
    if why:
        raise Mismatch("named.split_heads", f"wrong value: {why}", inputs=inputs, got=got,
                       expected=expected, how=EXACT.describe())


@given(x=cases("named.merge_heads", S.merge_cases()))
@example(x=torch.arange(12.0).reshape(1, 2, 2, 3).transpose(1, 2).contiguous())  # split_heads's example
def test_merge_heads(impl, oracle, x):
    batch, heads, seq, head_dim = x.shape
    got, expected, inputs = ask_checked(
        impl, oracle, "named.checked_merge_heads", "named.merge_heads", x,
        returns=Tensor(torch.float32, (batch, seq, heads * head_dim)))
    why = differs(got, expected, EXACT)
    if why:
        raise Mismatch("named.merge_heads", f"wrong value: {why}", inputs=inputs, got=got,
                       expected=expected, how=EXACT.describe())


VERDICT = Tuple(STR, STR)
WELL_SHAPED = ("attention_scores", "split_heads", "merge_heads")


def bad_calls(batch, seq_q, seq_k, heads, dim):
    """What the probe breaks, keyed as it reports: (function, the bad input in words)."""
    return {
        "attention_scores 3-D q": ("attention_scores", f"a 3-D q of shape {(seq_q, heads, dim)}"),
        "attention_scores batch mismatch": (
            "attention_scores", f"q and k with different batch sizes ({batch} and {batch + 1})"),
        "split_heads 2-D x": ("split_heads", f"a 2-D x of shape {(seq_q, heads * dim)}"),
        "merge_heads 3-D x": ("merge_heads", f"a 3-D x of shape {(heads, seq_q, dim)}"),
    }


@given(case=cases("named.annotations", S.annotation_cases()))
@settings(max_examples=10)  # each rejection costs the checker ~10 ms of message formatting
def test_annotations_reject_wrong_shapes(impl, oracle, case):
    bad = bad_calls(*case)
    expected = oracle.run("named.annotation_verdicts", *case)
    got = impl.run("named.annotation_verdicts", *case)
    inputs = describe_call("named.annotation_verdicts", case)
    check(got, Dict(**dict.fromkeys([*WELL_SHAPED, *bad], VERDICT)), "named.attention_scores", inputs)
    for name in WELL_SHAPED:
        verdict, detail = got[name]
        require(verdict == expected[name][0], f"named.{name}",
                f"the jaxtyping check rejected a well-shaped call ({verdict}): {detail}",
                inputs=inputs, show_values=False)
    for key, (name, what) in bad.items():
        verdict, _ = got[key]
        if verdict == expected[key][0]:
            continue
        if verdict == "accepted":
            problem = f"your function accepted {what}: keep the jaxtyping annotations"
        else:
            problem = (f"{what} was not stopped by the jaxtyping check (your function itself "
                       f"raised {verdict}): keep the jaxtyping annotations")
        raise Mismatch(f"named.{name}", problem, inputs=inputs, show_values=False)


CALLS = Dict(einsum=INT, rearrange=INT)
EXPECTED_OPS = (("attention_scores", "einsum"), ("split_heads", "rearrange"), ("merge_heads", "rearrange"))


@given(case=cases("named.einops", S.einops_cases()))
@settings(max_examples=10)  # whether einops is called does not depend on the values
def test_uses_einops(impl, case):
    counts = impl.run("named.einops_calls", *case)
    check(counts, Dict(**{name: CALLS for name, _ in EXPECTED_OPS}), "named.attention_scores")
    for name, op in EXPECTED_OPS:
        require(counts[name][op] >= 1, f"named.{name}",
                f"never called einops.{op}: write it with einops.{op} and named axes, as the docstring asks",
                show_values=False)
