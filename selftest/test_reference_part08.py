"""Staff check: the Part 8 reference against torch itself, and the statistical tests' arithmetic.

torch is the oracle of the oracle: the reference's weights are exactly what
``nn.init.trunc_normal_`` with the cut scaled by std draws, its forward is the
chain of matmuls, its counts are those of ``parameters_to_vector``. The moments
and bounds the graded initialisation tests use are checked by numerical
integration, and shown to reject the usual wrong initialisations by a margin.
"""

import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from torch import nn

from grader.harness.probes import part08 as P
from reference import model as R
from tests import test_part08_model as T
from tests.strategies import part08 as S


def test_cut_normal_moments_by_integration():
    x = np.linspace(-T.CUT, T.CUT, 2_000_001)
    density = np.exp(-x**2 / 2) / np.sqrt(2 * np.pi)
    mass = np.trapezoid(density, x)
    assert mass == pytest.approx(T._MASS, rel=1e-9)
    assert np.trapezoid(x**2 * density, x) / mass == pytest.approx(T.CUT_VAR, rel=1e-9)
    assert np.trapezoid(x**4 * density, x) / mass == pytest.approx(T.CUT_FOURTH, rel=1e-9)
    assert (T.CUT_VAR, T.CUT_STD, T.CUT_FOURTH) == pytest.approx((0.97334, 0.98658, 2.68005), abs=1e-5)


def test_bernstein_bound_against_monte_carlo():
    """At a p loose enough for misses to be counted, fewer than p of the samples miss."""
    n, p = 1000, 0.05
    tol = T.bernstein(n, T.CUT_FOURTH - T.CUT_VAR**2, T.CUT**2 - T.CUT_VAR, p)
    gen = torch.Generator().manual_seed(0)
    w = torch.empty(2000, n, dtype=torch.float64)
    nn.init.trunc_normal_(w, std=1.0, a=-T.CUT, b=T.CUT, generator=gen)
    misses = ((w.square().mean(dim=1) - T.CUT_VAR).abs() > tol).double().mean().item()
    assert misses < p


def test_init_bounds_reject_wrong_inits_by_a_margin():
    """At 2**19 weights, the wrong laws' variance sits >= 5 standard errors outside the band."""
    n = S.INIT_COUNT
    tol = T.bernstein(n, T.CUT_FOURTH - T.CUT_VAR**2, T.CUT**2 - T.CUT_VAR)
    # N(0, 1) clamped to ±3: the 0.27% beyond the cut sits on the bounds
    clamped = (T.CUT_VAR * T._MASS + T.CUT**2 * (1 - T._MASS), T.CUT_FOURTH * T._MASS + T.CUT**4 * (1 - T._MASS))
    for variance, fourth in ((1.0, 3.0), clamped):  # untruncated, clamped
        standard_error = math.sqrt((fourth - variance**2) / n)
        assert variance - (T.CUT_VAR + tol) > 5 * standard_error
    low, high = T.output_std_band(65536, S.SCALE_BATCH)
    assert (round(low, 3), round(high, 3)) == (0.82, 1.156)  # as the test's docstring says
    assert high < math.sqrt(64) * T.CUT_STD and low > T.CUT_STD / math.sqrt(64)  # sqrt(in), 1/sqrt(in) off


@settings(max_examples=5)
@given(S.init_cases())
def test_linear_weight_is_trunc_normal_cut_at_three_std(case):
    input_dim, output_dim, seed = case
    torch.manual_seed(seed)
    layer = R.Linear(input_dim, output_dim)
    torch.manual_seed(seed)
    std = 1 / math.sqrt(input_dim)
    expected = nn.init.trunc_normal_(torch.empty(input_dim, output_dim), std=std, a=-3 * std, b=3 * std)
    assert isinstance(layer.weight, nn.Parameter) and layer.weight.dtype == torch.float32
    assert torch.equal(layer.weight.detach(), expected)


@given(S.forward_cases)
def test_forward_is_the_chain_of_matmuls(case):
    dim, num_layers, batch, seed = case
    model = R.Cruncher(dim, num_layers)
    state = P.spec_weights(dim, num_layers, seed)
    model.load_state_dict(state)
    x = torch.randn(batch, dim, generator=torch.Generator().manual_seed(seed + 1))
    expected = x
    for i in range(num_layers):
        expected = expected @ state[f"layers.{i}.weight"]
    expected = (expected @ state["final.weight"])[:, 0]
    assert torch.allclose(model(x), expected, rtol=1e-6, atol=1e-6)
    assert model(x).shape == (batch,)


@given(S.harness_modules)
def test_num_parameters_counts_unique_parameters(module):
    built = P.harness_module(*module)
    assert R.num_parameters(built) == nn.utils.parameters_to_vector(built.parameters()).numel()


@given(S.cruncher_sizes)
def test_cruncher_layout(size):
    dim, num_layers = size
    model = R.Cruncher(dim, num_layers)
    shapes = {key: tuple(value.shape) for key, value in model.state_dict().items()}
    expected = {f"layers.{i}.weight": (dim, dim) for i in range(num_layers)} | {"final.weight": (dim, 1)}
    assert shapes == expected
    assert dict(model.named_parameters()).keys() == expected.keys()
    assert R.num_parameters(model) == num_layers * dim * dim + dim


def test_docstring_examples():
    model = R.Cruncher(64, 2)
    assert sorted(model.state_dict()) == ["final.weight", "layers.0.weight", "layers.1.weight"]
    assert model.layers[0].weight.shape == (64, 64) and model.final.weight.shape == (64, 1)
    assert model(torch.randn(8, 64)).shape == (8,)
    assert R.num_parameters(model) == 8256 and R.num_parameters(nn.Linear(3, 2)) == 8
    torch.manual_seed(0)
    assert R.Linear(1024, 512).weight.std().item() == pytest.approx(0.0308, abs=0.0002)
    low, high = T.output_std_band(1024 * 64, 4096)
    assert low < R.Linear(1024, 64)(torch.randn(4096, 1024)).std().item() < high
    assert T.CUT_STD == pytest.approx(0.987, abs=5e-4)


@pytest.mark.parametrize("call", [
    lambda: R.Linear(0, 3),
    lambda: R.Linear(3, -1),
    lambda: R.Cruncher(0, 2),
    lambda: R.Cruncher(4, -1),
], ids=["input_dim 0", "output_dim negative", "dim 0", "num_layers negative"])
def test_bad_arguments_raise_value_error(call):
    with pytest.raises(ValueError, match=r"\w"):
        call()
