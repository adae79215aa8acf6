"""Staff check: the trusted side's tensor checks (``schema.all_finite``, ``compare.differs``) keep
their meaning on their fast paths, which skip work when a sum is finite or two tensors are equal."""

import math

import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from grader.harness.compare import beyond, close, differs
from grader.harness.schema import Tensor, all_finite

FLOATS = [torch.float64, torch.float32, torch.float16, torch.bfloat16, torch.float8_e4m3fn, torch.float8_e5m2]


@given(dtype=st.sampled_from(FLOATS), numel=st.integers(1, 300), data=st.data())
def test_one_nan_or_infinity_anywhere_is_found(dtype, numel, data):
    t = torch.randn(numel, dtype=torch.float64).to(dtype)
    assert all_finite(t)
    where = data.draw(st.integers(0, numel - 1))
    bad = data.draw(st.sampled_from([math.nan, math.inf, -math.inf] if dtype != torch.float8_e4m3fn else [math.nan]))
    t[where] = bad
    assert not all_finite(t)
    assert Tensor().problem(t) == "returned a tensor with NaN or infinite values"


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32, torch.float16, torch.bfloat16])
def test_finite_values_whose_sum_overflows_are_finite(dtype):
    big = torch.finfo(dtype).max
    t = torch.full((8,), big, dtype=dtype)
    assert not math.isfinite(t.sum().item())  # the fast path cannot decide: the exact check does
    assert all_finite(t) and Tensor().problem(t) is None


def test_infinities_of_both_signs_are_found_though_their_sum_is_nan():
    assert not all_finite(torch.tensor([math.inf, -math.inf, 1.0]))


@given(st.lists(st.floats(allow_nan=True, allow_infinity=True, width=32), min_size=1, max_size=20), st.data())
def test_a_tolerant_comparison_passes_equal_tensors_and_finds_one_wrong_value(values, data):
    expected = torch.tensor(values, dtype=torch.float32)
    assert differs(expected.clone(), expected, close(1e-6)) is None  # NaNs in the same places, equal infinities
    where = data.draw(st.integers(0, len(values) - 1))
    got = expected.clone()
    e = values[where]
    wrong = data.draw(st.sampled_from([math.nan, math.inf, -math.inf, 1e30, -1e30]).map(
        lambda v: torch.tensor(v, dtype=torch.float32).item()).filter(  # as the tensor will hold it
        lambda v: not (v == e or (math.isnan(v) and math.isnan(e)) or math.isclose(v, e, rel_tol=1e-6))))
    got[where] = wrong
    assert differs(got, expected, close(1e-6)) is not None


@pytest.mark.parametrize("wrong", [-math.inf, 1e30, 0.0])
def test_an_infinity_is_close_only_to_itself(wrong):
    expected = torch.tensor([1.0, math.inf])
    assert differs(torch.tensor([1.0, math.inf]), expected, close(1e-3)) is None
    assert differs(torch.tensor([1.0, wrong]), expected, close(1e-3)) == "1 of 2 values differ; worst at (1,): " + (
        f"{wrong:.8g} vs inf")


@pytest.mark.parametrize("got", [math.nan, math.inf, 2.0])
def test_elementwise_tolerances_let_no_nan_or_infinity_through(got):
    expected, tolerance = torch.tensor([1.0, 1.0]), torch.tensor([0.5, 0.5])
    assert beyond(torch.tensor([1.2, 1.0]), expected, tolerance) is None
    assert beyond(torch.tensor([math.inf]), torch.tensor([math.inf]), torch.tensor([0.5])) is None
    assert beyond(torch.tensor([1.0, got]), expected, tolerance) is not None


def test_the_worst_value_shown_is_a_wrong_one_never_an_equal_infinity():
    expected = torch.tensor([math.inf, 5.0, 1.0])
    assert differs(torch.tensor([math.inf, 7.0, 1.0]), expected, close(1e-3)).endswith("worst at (1,): 7 vs 5")
    assert differs(torch.tensor([math.inf, 5.0, math.nan]), expected, close(1e-3)).endswith("worst at (2,): nan vs 1")
    tolerance = torch.tensor([0.5, 0.5, 0.5])
    assert beyond(torch.tensor([math.inf, 7.0, 1.0]), expected, tolerance).endswith("worst at (1,): 7 vs 5")
