"""Part 8 — Linear and Cruncher (assignment/model.py).

Structure tests compare with the reference: parameter counts and state-dict
layouts exactly, the forward pass (with the same weights loaded on both sides)
within 1e-5. Counting runs first on modules the harness builds, so a broken
``Cruncher`` cannot hide a correct ``num_parameters``.

The initialisation tests are statistical, on ``Linear`` weights of at least
2**19 elements from a seed. Their bounds come from inequalities that hold for
any sample size, not from a normal approximation: a correct initialisation
fails one drawn example with probability below 3e-9, so a whole run (at most
12 examples per test, whatever the profile) below 1e-7. The wrong
initialisations students write (no 1/sqrt(input_dim), 1/input_dim, no cut, a
cut at ±3 absolute, a clamp) land tens of standard errors outside.
"""

import math

import torch
from hypothesis import example, given, settings

from grader.harness.door import describe_call
from grader.harness import expect
from grader.harness.expect import INT, Tensor, agree_run, check, close, differs, fail, require
from grader.harness.faults import Mismatch
from grader.harness.oracle import cases
from tests.strategies import part08 as S

FORWARD = close(rel=1e-5, abs=1e-5)

# ---- N(0, 1) cut at ±3: its moments, exactly (the weights are std * X with X of this law)
CUT = 3.0
_PDF = math.exp(-CUT**2 / 2) / math.sqrt(2 * math.pi)
_MASS = math.erf(CUT / math.sqrt(2))  # P(|Z| < 3) = Phi(3) - Phi(-3)
CUT_VAR = 1 - 2 * CUT * _PDF / _MASS  # E[X^2] = 0.97334
CUT_STD = math.sqrt(CUT_VAR)  # 0.98658
CUT_FOURTH = 3 - (2 * CUT**3 + 6 * CUT) * _PDF / _MASS  # E[X^4] = 2.68005
FALSE_ALARM = 1e-9  # per bound and example


def bernstein(n: int, variance: float, bound: float, p: float = FALSE_ALARM) -> float:
    """t with P(|mean of n iid values - their mean| >= t) <= p, for values within ``bound`` of their mean.

    Bernstein's inequality, P <= 2 exp(-n t^2 / (2 (variance + bound t / 3))), solved for t.
    """
    log = math.log(2 / p)
    linear = 2 / 3 * log * bound
    return (linear + math.sqrt(linear**2 + 8 * n * log * variance)) / (2 * n)


# --------------------------------------------------------------------------- helpers
def ask(impl, oracle, probe, *args, subject):
    """The implementation's answer (and the oracle's, if given); a problem the probe met fails at once."""
    got, expected, inputs = expect.ask(impl, oracle, probe, *args)
    require(got.get("problem") is None, subject, str(got.get("problem")), inputs=inputs, show_values=False)
    return got, expected, inputs


def weight_stats(impl, case):
    """Moments of a fresh Linear(input_dim, output_dim).weight, after checking its shape and dtype."""
    input_dim, output_dim, _ = case
    stats, _, inputs = ask(impl, None, "model.linear_init_stats", *case, subject="model.Linear")
    if stats["shape"] != (input_dim, output_dim):
        fail("model.Linear", f"weight has shape {stats['shape']}; expected (input_dim, output_dim) = "
             f"{(input_dim, output_dim)}, used as x @ weight", inputs)
    if stats["dtype"] != torch.float32:
        fail("model.Linear", f"weight is {stats['dtype']}; expected torch.float32", inputs)
    return stats, inputs


# --------------------------------------------------------------------------- counting
def harness_module_in_words(kind, *sizes):
    """What ``grader.harness.probes.part08.harness_module`` builds, as a failure message says it."""
    if kind == "mlp":
        dims, bias = sizes
        return f"nn.Linear layers {' -> '.join(map(str, dims))} {'with' if bias else 'without'} bias, ReLU between"
    if kind == "deep_linear":
        dim, layers = sizes
        return f"{layers} nn.Linear({dim}, {dim}, bias=False), then nn.Linear({dim}, 1, bias=False)"
    if kind == "linear_batchnorm":
        return (f"nn.Linear({sizes[0]}, {sizes[0]}) then nn.BatchNorm1d({sizes[0]}), whose running "
                "statistics are buffers, not parameters")
    vocab, dim = sizes
    return f"nn.Embedding({vocab}, {dim}) whose weight is also the output layer's: one parameter used twice"


@given(module=cases("model.num_parameters", S.harness_modules),
       cruncher=cases("model.num_parameters_of_cruncher", S.cruncher_sizes))
@example(module=("deep_linear", 64, 2), cruncher=(64, 2))  # the lecture's 64*64 + 64*64 + 64 = 8256
def test_num_parameters(impl, oracle, module, cruncher):
    """First on a module the harness builds (an MLP of nn.Linear layers with or without bias,
    a deep linear stack, nn.Linear + nn.BatchNorm1d, an embedding tied to the output layer),
    then on your own ``Cruncher(dim, num_layers)``."""
    expected = oracle.run("model.num_parameters", module)
    got = impl.run("model.num_parameters", module)
    inputs = describe_call("model.num_parameters", (module,))
    check(got, INT, "model.num_parameters", inputs)
    if got != expected:
        raise Mismatch("model.num_parameters", f"wrong count for {harness_module_in_words(*module)}",
                       inputs=inputs, got=got, expected=expected)
    agree_run(impl, oracle, "model.num_parameters_of_cruncher", *cruncher, returns=INT,
              subject="model.num_parameters")


# --------------------------------------------------------------------------- Cruncher
@given(size=cases("model.cruncher_layout", S.cruncher_sizes))
@example(size=(64, 2))
def test_cruncher_state_dict(impl, oracle, size):
    """Keys ``layers.{i}.weight`` and ``final.weight``, shapes (input_dim, output_dim), float32, all parameters."""
    got, expected, inputs = ask(impl, oracle, "model.cruncher_layout", *size, subject="model.Cruncher")
    mine, spec = got["state_dict"], expected["state_dict"]
    if set(mine) != set(spec):
        fail("model.Cruncher", f"state_dict keys {sorted(mine)}; expected {sorted(spec)} "
             "(self.layers = nn.ModuleList of Linear(dim, dim), self.final = Linear(dim, 1), no bias)", inputs)
    for key, (shape, dtype) in spec.items():
        if mine[key][0] != shape:
            fail("model.Cruncher", f"{key} has shape {mine[key][0]}; expected {shape} = "
                 "(input_dim, output_dim), used as x @ weight", inputs)
        if mine[key][1] != dtype:
            fail("model.Cruncher", f"{key} is {mine[key][1]}; expected {dtype}", inputs)
    if got["parameters"] != expected["parameters"]:
        fail("model.Cruncher", f"named_parameters() gives {list(got['parameters'])}; expected "
             f"{list(expected['parameters'])}: wrap each weight in nn.Parameter, or the optimizer never sees it",
             inputs)


@given(case=cases("model.cruncher_forward", S.forward_cases))
@example(case=(64, 2, 4, 0))
def test_cruncher_forward(impl, oracle, case):
    """The same seeded weights loaded with load_state_dict on both sides; output (batch,) within 1e-5.

    Rounding differences between correct ways of writing the matmuls are ~1e-7;
    a layer skipped, a transposed weight or a nonlinearity changes outputs by ~1.
    """
    got, expected, inputs = ask(impl, oracle, "model.cruncher_forward", *case, subject="model.Cruncher")
    batch = case[2]
    check(got["output"], Tensor(torch.float32, (batch,)), "model.Cruncher", inputs)
    why = differs(got["output"], expected["output"], FORWARD)
    if why:
        raise Mismatch("model.Cruncher", f"wrong forward output: {why}", inputs=inputs,
                       got=got["output"], expected=expected["output"], how=FORWARD.describe())


# --------------------------------------------------------------------------- initialisation
@settings(max_examples=10)
@given(case=cases("model.linear_init_std", S.init_cases()))
@example(case=(1024, 512, 0))
@example(case=(128, 4096, 1))
def test_linear_init_std(impl, case):
    """Mean 0 and std 0.98658/sqrt(input_dim): N(0, 1/input_dim) cut at ±3 std has that std.

    Bounds: Bernstein's inequality for the mean of w and of w^2 over all n weights
    (bounded, since cut), each at false-alarm probability 1e-9. For n = 2**19 the std
    must lie within ±0.62% of 0.98658/sqrt(input_dim); no cut gives +1.4%, a clamp +1.1%.
    """
    stats, inputs = weight_stats(impl, case)
    n, root = stats["count"], math.sqrt(case[0])
    mean = stats["sum"] / n * root  # in units of 1/sqrt(input_dim)
    mean_tol = bernstein(n, CUT_VAR, CUT)
    if abs(mean) > mean_tol:
        fail("model.Linear", f"the weights' mean is {mean:.4f}/sqrt(input_dim); expected 0 "
             f"(within ±{mean_tol:.4f}/sqrt(input_dim))", inputs)
    square = stats["sum_squares"] / n * case[0]  # mean of w^2 in units of 1/input_dim
    square_tol = bernstein(n, CUT_FOURTH - CUT_VAR**2, CUT**2 - CUT_VAR)
    low, high = math.sqrt(CUT_VAR - square_tol), math.sqrt(CUT_VAR + square_tol)
    if not low <= math.sqrt(square) <= high:
        fail("model.Linear", f"the weights' std is {math.sqrt(square):.4f}/sqrt(input_dim); expected "
             f"{CUT_STD:.4f}/sqrt(input_dim) (between {low:.4f} and {high:.4f}), the std of "
             "N(0, 1/input_dim) cut at ±3 std", inputs)


@settings(max_examples=10)
@given(case=cases("model.linear_init_truncated", S.init_cases()))
@example(case=(1024, 512, 0))
def test_linear_init_truncated(impl, case):
    """No |w| beyond 3/sqrt(input_dim) (float32 slack 1e-6), and the largest |w| near the cut.

    "Near": at least 2.9 times the std of the normal the weights came from, as their
    own spread shows it (sqrt(mean w^2 / 0.97334), taken at the low end of its
    Bernstein bound, so whatever the std, and wrong by more with probability below
    1e-9). A correct init has about 540 of 2**19 weights beyond that; a cut at ±2 std
    stops at 2.
    """
    stats, inputs = weight_stats(impl, case)
    std = 1 / math.sqrt(case[0])
    largest = stats["max_abs"] / std  # in units of std
    if largest > CUT * (1 + 1e-6):
        fail("model.Linear", f"the largest |weight| is {largest:.3f} std; a normal cut at ±3 std has none "
             "beyond 3 std = 3/sqrt(input_dim) (trunc_normal_'s a and b are absolute values: "
             "a=-3 * std, b=3 * std)", inputs)
    square = stats["sum_squares"] / stats["count"] / std**2
    relative_tol = bernstein(stats["count"], CUT_FOURTH - CUT_VAR**2, CUT**2 - CUT_VAR) / CUT_VAR
    own_std = math.sqrt(square / (CUT_VAR * (1 + relative_tol)))  # the normal's std, estimated low
    if largest < 2.9 * own_std:
        fail("model.Linear", f"the largest |weight| is only {largest / own_std:.3f} times the std of "
             "the normal it came from; cut at ±3 std, not tighter", inputs)


def output_std_band(num_weights: int, batch: int) -> tuple[float, float]:
    """Bounds on std(x @ W) for x (batch, in) ~ N(0, 1) and a correct W, false alarm <= 3e-9.

    Given W, mean(y^2) is a weighted sum of chi-squares with mean c = mean column
    norm^2 of W; Laurent & Massart bound it within c (1 - 2 sqrt(L/B), 1 + 2 sqrt(L/B)
    + 2 L/B), L = ln(1/1e-9), B = batch (crudely: ||C||_F <= trace C). And c itself,
    an average of num_weights squared weights, is within Bernstein's bound of 0.97334.
    """
    tol = bernstein(num_weights, CUT_FOURTH - CUT_VAR**2, CUT**2 - CUT_VAR)
    log = math.log(1 / FALSE_ALARM)
    low = (CUT_VAR - tol) * (1 - 2 * math.sqrt(log / batch))
    high = (CUT_VAR + tol) * (1 + 2 * math.sqrt(log / batch) + 2 * log / batch)
    return math.sqrt(low), math.sqrt(high)


@settings(max_examples=4)
@given(case=cases("model.output_scale", S.scale_cases))
@example(case=(64, 1024, S.SCALE_BATCH, 0))
@example(case=(128, 512, S.SCALE_BATCH, 0))
@example(case=(512, 128, S.SCALE_BATCH, 0))
@example(case=(1024, 64, S.SCALE_BATCH, 0))
def test_output_scale(impl, case):
    """y = Linear(input_dim, output_dim)(x), x (4096, input_dim) ~ N(0, 1): std(y) ≈ 0.987 at every width.

    The band (0.897 to 1.078) holds for a correct Linear with probability above
    1 - 3e-9 (see ``output_std_band``); without 1/sqrt(input_dim) the std is
    sqrt(input_dim) >= 8, with 1/input_dim it is <= 0.125.
    """
    input_dim, output_dim, batch, _ = case
    got, _, inputs = ask(impl, None, "model.linear_output_scale", *case, subject="model.Linear")
    if got["shape"] != (batch, output_dim) or got["dtype"] != torch.float32:
        fail("model.Linear", f"forward returned a {got['dtype']} tensor of shape {got['shape']} for x of shape "
             f"{(batch, input_dim)}; expected float32 of shape {(batch, output_dim)}", inputs)
    std = math.sqrt(got["mean_square"])
    low, high = output_std_band(input_dim * output_dim, batch)
    if not low <= std <= high:
        fail("model.Linear", f"y = x @ weight has std {std:.4g} for x ~ N(0, 1); expected about {CUT_STD:.3f} "
             f"whatever input_dim (between {low:.3f} and {high:.3f}): each output sums input_dim "
             "products, so the weights need variance ~1/input_dim", inputs)
