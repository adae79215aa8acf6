"""Part 8 — Linear and Cruncher (assignment/model.py).

Structure tests compare with the reference: parameter counts and state-dict
layouts exactly, the forward pass (with the same weights loaded on both sides)
within 1e-5. Counting runs first on modules the harness builds, so a broken
``Cruncher`` cannot hide a correct ``num_parameters``.

The initialisation tests are statistical, on ``Linear`` weights of at least
2**19 elements from a seed. Their bounds come from inequalities that hold for
any sample size, not from a normal approximation: a correct initialisation
fails one drawn example with probability below 5e-9, so a whole run (at most
6 examples per test, whatever the profile) below 1e-7. The wrong
initialisations students write (no 1/sqrt(input_dim), 1/input_dim, no cut, a
cut at ±3 absolute, a clamp, the tails set to 0) land tens of standard errors
outside. Every statistic is computed here, from the weights your Linear holds
and the outputs it returned. No statistic of one layer shows an initialisation
that draws from a generator of its own (a fixed seed): both tests also build a
second Linear right after the first, which must hold other weights.
"""

import math

import torch
from hypothesis import settings

from grader.harness.ask import Answers, ask
from grader.harness.cases import example, given
from grader.harness.probes.part08 import (
    cruncher_forward, cruncher_init, cruncher_layout, linear_init, linear_output, num_parameters_of,
    num_parameters_of_cruncher, scale_input, small_linears_init,
)
from grader.harness.schema import INT, Tensor
from tests.strategies import part08 as S

# ---- N(0, 1) cut at ±3: its moments, exactly (the weights are std * X with X of this law)
CUT = 3.0
_PDF = math.exp(-CUT**2 / 2) / math.sqrt(2 * math.pi)
_MASS = math.erf(CUT / math.sqrt(2))  # P(|Z| < 3) = Phi(3) - Phi(-3)
CUT_VAR = 1 - 2 * CUT * _PDF / _MASS  # E[X^2] = 0.97334
CUT_STD = math.sqrt(CUT_VAR)  # 0.98658
CUT_FOURTH = 3 - (2 * CUT**3 + 6 * CUT) * _PDF / _MASS  # E[X^4] = 2.68005
NEAR_ZERO = 1e-4  # P(|X| < 1e-4) = 8.0004e-5: about 42 of 2**19 weights
NEAR_ZERO_MASS = math.erf(NEAR_ZERO / math.sqrt(2)) / _MASS + 2**-20  # plus float32 rounding, generously
NEAR_CUT = 2.95  # P(2.95 <= |X| <= 3) = 4.8e-4: about 250 of 2**19 weights (a clamp's 0.27% moved just inside: 1400)
NEAR_CUT_MASS = (_MASS - math.erf(NEAR_CUT / math.sqrt(2))) / _MASS + 2**-20
FALSE_ALARM = 1e-9  # per bound and example
# where the weights' distribution is compared with the cut normal's: the share of |w| below each multiple of
# the std, P(|X| < c) = erf(c / sqrt(2)) / P(|Z| < 3) (0.38, 0.68, 0.87, 0.96, 0.99): moments and tails can
# be matched by other laws (two uniforms mixed: same std, same density near the cut, 60% within 1 std)
SHAPE_AT = (0.5, 1.0, 1.5, 2.0, 2.5)


def bernstein(n: int, variance: float, bound: float, p: float = FALSE_ALARM) -> float:
    """t with P(|mean of n iid values - their mean| >= t) <= p, for values within ``bound`` of their mean.

    Bernstein's inequality, P <= 2 exp(-n t^2 / (2 (variance + bound t / 3))), solved for t.
    """
    log = math.log(2 / p)
    linear = 2 / 3 * log * bound
    return (linear + math.sqrt(linear**2 + 8 * n * log * variance)) / (2 * n)


# --------------------------------------------------------------------------- helpers
def no_problem(answers: Answers) -> Answers:
    """A probe that could not go on (not a Module, no weight, keys that do not load) fails at once."""
    if answers.got.problem is not None:
        answers.fail(answers.got.problem)
    return answers


def weights(impl, case) -> tuple[torch.Tensor, Answers]:
    """A fresh Linear(input_dim, output_dim).weight, after checking its shape and dtype."""
    input_dim, output_dim, _ = case
    answers = no_problem(ask(impl, None, linear_init, *case))
    weight = answers.got.weight
    if not isinstance(weight, torch.Tensor) or tuple(weight.shape) != (input_dim, output_dim):
        shape = tuple(weight.shape) if isinstance(weight, torch.Tensor) else type(weight).__name__
        answers.fail(f"weight has shape {shape}; expected (input_dim, output_dim) = "
                     f"{(input_dim, output_dim)}, used as x @ weight")
    if weight.dtype != torch.float32:
        answers.fail(f"weight is {weight.dtype}; expected torch.float32")
    return weight.to(torch.float64), answers


def check_fresh_draws(answers: Answers, input_dim: int, output_dim: int) -> None:
    """A second Linear of the same shape, built right after the first (torch not seeded again),
    must hold other weights: one layer at a time, a generator of the layer's own looks right."""
    first, second = answers.got.weight, answers.got.second
    if not isinstance(second, torch.Tensor) or second.shape != first.shape or second.dtype != first.dtype:
        what = f"a {second.dtype} tensor of shape {tuple(second.shape)}" if isinstance(second, torch.Tensor) \
            else type(second).__name__
        answers.fail(f"a second Linear({input_dim}, {output_dim}) built right after the first has a weight of "
                     f"{what}; expected float32 of shape {(input_dim, output_dim)}, as the first")
    again = answers.got.again
    if not (isinstance(again, torch.Tensor) and again.shape == first.shape and torch.equal(first, again)):
        answers.fail(f"a third Linear({input_dim}, {output_dim}), built after torch.manual_seed with the first's seed "
                     "again, holds other weights than the first: your initialisation draws from a generator "
                     "torch.manual_seed does not set (numpy's, Python's random, a torch.Generator of your own). Draw "
                     "from torch's default generator: nn.init.trunc_normal_(self.weight, std=std, a=-3 * std, "
                     "b=3 * std) with no generator= of your own, so that torch.manual_seed decides the weights")
    if torch.equal(first, second):
        answers.fail(f"a second Linear({input_dim}, {output_dim}) built right after the first, without seeding "
                     "again, has the very same weights: your initialisation draws from a generator of its own "
                     "(a fixed seed), so every layer of a model starts identical and torch.manual_seed changes "
                     "nothing. Draw from torch's default generator: nn.init.trunc_normal_(self.weight, std=std, "
                     "a=-3 * std, b=3 * std) with no generator= of your own, so that each layer gets its own "
                     "weights and torch.manual_seed decides them")


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
    if kind == "scaled_half":
        return (f"nn.Linear({sizes[0]}, {sizes[0]}, dtype=torch.bfloat16) and a learnable temperature, "
                "nn.Parameter(torch.tensor(1.0, dtype=torch.float64)): numbers, whatever their dtype, one for a "
                "0-d parameter")
    vocab, dim = sizes
    if kind == "frozen_embedding":
        return (f"nn.Embedding({vocab}, {dim}) with requires_grad=False (kept fixed, still a parameter), "
                f"then nn.Linear({dim}, {vocab})")
    return f"nn.Embedding({vocab}, {dim}) whose weight is also the output layer's: one parameter used twice"


@given(module=S.harness_modules, cruncher=S.cruncher_sizes)
@example(module=("deep_linear", 64, 2), cruncher=(64, 2))  # the lecture's 64*64 + 64*64 + 64 = 8256
@example(module=("mlp", (3, 2), True), cruncher=(64, 2))  # the docstring's nn.Linear(3, 2): 8
@example(module=("frozen_embedding", 5, 3), cruncher=(1, 0))  # 15 frozen + 20 trainable: 35
@example(module=("mlp", (4, 3, 2), True), cruncher=(4, 1))  # two biases, a ReLU between
@example(module=("tied_embedding", 5, 3), cruncher=(2, 1))  # one weight used twice, counted once: 15
@example(module=("scaled_half", 3), cruncher=(3, 1))  # 9 + 3 in bfloat16 and a float64 scalar: 13
def test_num_parameters(impl, oracle, module, cruncher):
    """First on a module the harness builds (an MLP of nn.Linear layers with or without bias,
    a deep linear stack, nn.Linear + nn.BatchNorm1d, an embedding tied to the output layer, a frozen
    embedding, a bfloat16 layer beside a 0-d float64 parameter),
    then on your own ``Cruncher(dim, num_layers)``."""
    ask(impl, oracle, num_parameters_of, module, returns=INT).about("model.num_parameters").same(
        f"wrong count for {harness_module_in_words(*module)}")
    answers = ask(impl, oracle, num_parameters_of_cruncher, *cruncher, returns=INT).about("model.Cruncher")
    dim, layers = cruncher
    repeated = "one Linear repeated, [Linear(dim, dim)] * num_layers, is one layer, counted once"
    short = "num_layers Linear(dim, dim) layers (range(num_layers)), then the final Linear(dim, 1)"
    hint = {  # what the count says went wrong: every hidden layer the same Linear, or one of them missing
        (True, True): f"one hidden layer too few, or a Linear repeated: {short}, each a Linear of its own ({repeated})",
        (True, False): f"each layer must be a Linear of its own ({repeated})",
        (False, True): f"one hidden layer too few: {short}",
    }.get((layers > 1 and answers.got == dim * dim + dim, answers.got == (layers - 1) * dim * dim + dim),
          "num_layers Linear(dim, dim) layers, each its own, then a Linear(dim, 1), none with a bias")
    answers.same(f"wrong count for your own Cruncher{tuple(cruncher)}; num_parameters was right on the harness's "
                 f"module just before, so look at the Cruncher: {hint}")


# --------------------------------------------------------------------------- Cruncher
@given(size=S.cruncher_sizes)
@example(size=(64, 2))
def test_cruncher_state_dict(impl, oracle, size):
    """Keys ``layers.{i}.weight`` and ``final.weight``, shapes (input_dim, output_dim), float32, all
    parameters; and, loaded with the spec's weights, the right forward (a layout is worth nothing else)."""
    answers = no_problem(ask(impl, oracle, cruncher_layout, *size))
    mine, spec = answers.got.state_dict, answers.expected.state_dict
    if set(mine) != set(spec):
        answers.fail(f"state_dict keys {sorted(mine)}; expected {sorted(spec)} "
                     "(self.layers = nn.ModuleList of Linear(dim, dim), self.final = Linear(dim, 1), no bias)")
    for key, (shape, dtype) in spec.items():
        if mine[key][0] != shape:
            answers.fail(f"{key} has shape {mine[key][0]}; expected {shape} = (input_dim, output_dim), "
                         "used as x @ weight")
        if mine[key][1] != dtype:
            answers.fail(f"{key} is {mine[key][1]}; expected {dtype}")
    if answers.got.parameters != answers.expected.parameters:
        answers.fail(f"named_parameters() gives {list(answers.got.parameters)}; expected "
                     f"{list(answers.expected.parameters)}: wrap each weight in nn.Parameter, or the optimizer "
                     "never sees it; and make each layer a Linear of its own (one Linear repeated, "
                     "[Linear(dim, dim)] * num_layers, holds one weight, listed once)")
    check_forward(impl, oracle, (*size, 2, 0))


def check_forward(impl, oracle, case):
    answers = no_problem(ask(impl, oracle, cruncher_forward, *case)).where("output")
    answers.check(Tensor(torch.float32, (case[2],)))
    answers.within(rel=1e-5, abs=1e-5, problem="wrong forward output")


@given(case=S.forward_cases)
@example(case=(64, 2, 4, 0))
def test_cruncher_forward(impl, oracle, case):
    """The same seeded weights loaded with load_state_dict on both sides; output (batch,) within 1e-5.

    Rounding differences between correct ways of writing the matmuls are ~1e-7;
    a layer skipped, a transposed weight or a nonlinearity changes outputs by ~1.
    """
    check_forward(impl, oracle, case)


# --------------------------------------------------------------------------- initialisation
def check_std(weight: torch.Tensor, answers: Answers, input_dim: int, whose: str = "the weights'") -> None:
    """Mean 0 and std 0.98658/sqrt(input_dim), within Bernstein's bounds (valid for any number of weights:
    fewer only widen them)."""
    n, root = weight.numel(), math.sqrt(input_dim)
    mean = weight.sum().item() / n * root  # in units of 1/sqrt(input_dim)
    square = weight.square().sum().item() / n * input_dim  # mean of w^2 in units of 1/input_dim
    # the mean's bound holds for weights of the right spread; weights spread wider (a scale forgotten) have
    # a mean as much wider by chance alone, which is no shift: the bound grows with their spread, so that
    # such weights are told their std, not their mean
    mean_tol = bernstein(n, CUT_VAR, CUT) * max(1.0, math.sqrt(square / CUT_VAR))
    if abs(mean) > mean_tol:
        answers.fail(f"{whose} mean is {mean:.4f}/sqrt(input_dim); expected 0 "
                     f"(within ±{mean_tol:.4f}/sqrt(input_dim))")
    square_tol = bernstein(n, CUT_FOURTH - CUT_VAR**2, CUT**2 - CUT_VAR)
    low, high = math.sqrt(CUT_VAR - square_tol), math.sqrt(CUT_VAR + square_tol)
    if not low <= math.sqrt(square) <= high:
        # as far from 1 as the bounds allow: the std of N(0, 1/input_dim) itself; nothing cut where the draws
        # beyond 3 std are there (0.27% of them), or else those moved to the cut (a clamp) or a std made larger
        one = abs(math.sqrt(square) - 1.0) <= (high - low) / 2
        beyond = int(torch.count_nonzero(weight.abs() * root > CUT * (1 + 1e-6))) > max(10, 0.001 * n)
        # ... nor near it: no normal's draws (of thousands, 1.2% of them past 2.5 std), a uniform's say (its
        # largest at sqrt(3) std)
        largest = weight.abs().max().item() * root
        short = n >= 2000 and largest < 2.5
        answers.fail(f"{whose} std is {math.sqrt(square):.4f}/sqrt(input_dim); expected "
                     f"{CUT_STD:.4f}/sqrt(input_dim) (between {low:.4f} and {high:.4f}), the std of "
                     "N(0, 1/input_dim) cut at ±3 std" +
                     (": about the std of N(0, 1/input_dim) itself, as if nothing was cut (with "
                      "nn.init.trunc_normal_: its a and b are absolute values, not multiples of std: a=-3 * std, "
                      "b=3 * std)" if one and beyond else
                      f": about the std of N(0, 1/input_dim) itself, but no weight comes near the cut (the largest "
                      f"is {largest:.2f} std, where thousands of normal draws reach past 2.5): not drawn from a "
                      "normal distribution (a uniform one?). Draw from N(0, 1/input_dim) and cut at ±3 std, drawing "
                      "again what falls beyond (nn.init.trunc_normal_ does)" if one and short else
                      ": about the std of N(0, 1/input_dim) itself, though few or no weights lie past 3 std: the "
                      "draws beyond the cut were moved onto it (a clamp) rather than drawn again, or the std was "
                      "made larger to make up for the cut. Cut N(0, 1/input_dim) itself at ±3 std, drawing again "
                      "what falls beyond (nn.init.trunc_normal_ does)" if one else ""))


@settings(max_examples=4)  # 2**19 weights each: a wrong initialisation shows in any of them
@given(case=S.init_cases())
@example(case=(1024, 512, 0))
@example(case=(128, 4096, 1))
@example(case=(4, 131072, 2))  # a narrow layer: a fan-in off by one (a bias counted) is 11% off here
def test_linear_init_std(impl, case):
    """Mean 0 and std 0.98658/sqrt(input_dim): N(0, 1/input_dim) cut at ±3 std has that std. And
    a second Linear built right after the first holds other weights: each layer draws its own. And
    layers of under 512 weights start the same way (``check_small_layers``: many, pooled).

    Bounds: Bernstein's inequality for the mean of w and of w^2 over all n weights
    (bounded, since cut), each at false-alarm probability 1e-9. For n = 2**19 the std
    must lie within ±0.62% of 0.98658/sqrt(input_dim); no cut gives +1.4%, a clamp +1.1%.
    """
    weight, answers = weights(impl, case)
    check_std(weight, answers, case[0])
    check_fresh_draws(answers, *case[:2])
    check_small_layers(impl, case[2])


def check_small_layers(impl, seed: int) -> None:
    """Layers of under 512 weights start as big ones do. No statistic of one such layer tells, so about 60
    of them (``S.small_layer_shapes``, 2**14 weights in all) are built one after another, each weight taken
    times sqrt(its input_dim) and all pooled: the pool holds Linear's spread (``check_std``, whose bounds
    hold for any number of weights: about ±3.5% of the std here) and nothing beyond the cut."""
    shapes = S.small_layer_shapes(seed)
    answers = no_problem(ask(impl, None, small_linears_init, shapes, seed))
    built = answers.got.weights
    if not isinstance(built, tuple) or len(built) != len(shapes):
        answers.fail(f"{len(shapes)} small Linear layers built one after another did not each give a weight")
    pooled = []
    for (input_dim, output_dim), weight in zip(shapes, built):
        if not isinstance(weight, torch.Tensor) or tuple(weight.shape) != (input_dim, output_dim) \
                or weight.dtype != torch.float32:
            answers.fail(f"Linear({input_dim}, {output_dim}).weight is not a float32 tensor of shape "
                         f"{(input_dim, output_dim)} (input_dim, output_dim)")
        pooled.append(weight.to(torch.float64).reshape(-1) * math.sqrt(input_dim))
    pooled = torch.cat(pooled)
    named = ", ".join(f"Linear{shape}" for shape in shapes[:3])
    whose = (f"small layers' weights ({len(shapes)} layers of under {S.SMALL_LAYER} weights each: {named}, ...; "
             f"each weight times sqrt(its input_dim), {pooled.numel()} pooled): their")
    check_std(pooled, answers, 1, whose=whose)
    largest = pooled.abs().max().item()
    if largest > CUT * (1 + 1e-6):
        answers.fail(f"{whose} largest |weight| is {largest:.3f} std; Linear's initialisation has none beyond 3 std, "
                     "in a small layer as in a big one")


@settings(max_examples=4)
@given(case=S.init_cases())
@example(case=(1024, 512, 0))
def test_linear_init_truncated(impl, case):
    """The right spread (as ``test_linear_init_std``), no |w| beyond 3/sqrt(input_dim) (float32
    slack 1e-6), the largest |w| near the cut, and no pile of weights at 0.

    "Near": at least 2.9 times the std of the normal the weights came from, as their
    own spread shows it (sqrt(mean w^2 / 0.97334), taken at the low end of its
    Bernstein bound, so whatever the std, and wrong by more with probability below
    1e-9). A correct init has about 540 of 2**19 weights beyond that; a cut at ±2 std
    stops at 2.

    "No pile at 0": the weights within 1e-4 std of 0 are as many as the cut normal
    puts there, P(|X| < 1e-4) = 8.0e-5 (plus 2**-20 for float32 rounding), within
    Bernstein's bound for that proportion at 1e-9: about 42 of 2**19, at most 93.
    Setting the 0.27% of draws beyond ±3 std to 0 instead of drawing them again
    leaves about 1460 there. Likewise no crowd just inside the cut: between 2.95 and
    3 std, P = 4.8e-4, about 250 of 2**19, at most about 360; the 0.27% clamped
    there, spread out so that no two tie, put about 1650 there; and no dearth there either (at
    least about 140): a cut at ±2.9 std, whose spread and largest weight pass, puts none.

    The shape: the share of weights within 0.5, 1, 1.5, 2 and 2.5 std of 0 is the cut normal's
    (68.45% within 1 std), within Bernstein's bound at 1e-9 (0.4% of 2**19): two uniforms mixed
    to match the std and the density near the cut put 60% within 1 std.
    """
    weight, answers = weights(impl, case)
    check_std(weight, answers, case[0])
    check_fresh_draws(answers, *case[:2])
    check_truncated(weight, answers, case[0])


PILE, PILE_MASS = 40, 1e-3  # a pile: more weights at one magnitude than both of these
TOP_TIES = 3  # this many weights at exactly the largest magnitude: a clamp's, not a draw's
# Independent float32 draws share a magnitude by chance only: about n * sum(p^2) of them, p each float32
# magnitude's probability, 1-2% of 2**18 or 2**19 weights (the reference: 1.4-1.8% over seeds and widths).
# Draws mirrored (w and -w) or copied to fill the matrix share all of theirs.
SHARED_MAX = 0.25


# magnitudes (never negative) sorted as the integers of their bits, which order as the values do: a radix
# sort, a tenth of a float sort's time (2**19 weights, many times a run)
_BITS = {torch.float64: torch.int64, torch.float32: torch.int32, torch.float16: torch.int16, torch.bfloat16: torch.int16}


def _runs(magnitude: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Each distinct magnitude and how many weights hold it (``torch.unique(..., return_counts=True)``)."""
    flat = magnitude.reshape(-1).contiguous()
    bits = _BITS.get(flat.dtype)
    ordered = flat.view(bits).sort().values.view(flat.dtype) if bits is not None else flat.sort().values
    return torch.unique_consecutive(ordered, return_counts=True)


def check_truncated(weight: torch.Tensor, answers: Answers, input_dim: int, whose: str = "the") -> None:
    """No |w| beyond the cut, the largest near it, no pile at 0 (see ``test_linear_init_truncated``)."""
    std = 1 / math.sqrt(input_dim)
    magnitude = weight.abs()
    largest = magnitude.max().item() / std  # in units of std
    if largest > CUT * (1 + 1e-6):
        answers.fail(f"{whose} largest |weight| is {largest:.3f} std; a normal cut at ±3 std has none beyond "
                     "3 std = 3/sqrt(input_dim) " + (
                         "(just past it: the cut is exact in float32; a draw made in a 16-bit dtype, or a bound "
                         "rounded to one, lands beyond it)" if largest <= CUT * 1.02 else
                         "(trunc_normal_'s a and b are absolute values: a=-3 * std, b=3 * std)"))
    square = weight.square().mean().item() / std**2
    relative_tol = bernstein(weight.numel(), CUT_FOURTH - CUT_VAR**2, CUT**2 - CUT_VAR) / CUT_VAR
    own_std = math.sqrt(square / (CUT_VAR * (1 + relative_tol)))  # the normal's std, estimated low
    if largest < 2.9 * own_std:
        answers.fail(f"{whose} largest |weight| is only {largest / own_std:.3f} times the std of the normal it "
                     "came from; cut at ±3 std, not tighter")
    n = weight.numel()
    near_zero = int(torch.count_nonzero(magnitude < NEAR_ZERO * std))
    limit = n * (NEAR_ZERO_MASS + bernstein(n, NEAR_ZERO_MASS * (1 - NEAR_ZERO_MASS), 1.0))
    if near_zero > limit:
        zeros = int((weight == 0).sum())
        answers.fail(f"{near_zero} of {whose} {n} weights lie within {NEAR_ZERO:g} std of 0 ({zeros} of them exactly "
                     f"0); a normal cut at ±3 std puts about {n * NEAR_ZERO_MASS:.0f} there (at most {limit:.0f}): "
                     "a truncated normal has no pile at 0. Draws beyond ±3 std must be drawn again, not set to 0: "
                     "nn.init.trunc_normal_(self.weight, std=std, a=-3 * std, b=3 * std) does it")
    near_cut = int(torch.count_nonzero(magnitude >= NEAR_CUT * std))
    slack = n * bernstein(n, NEAR_CUT_MASS * (1 - NEAR_CUT_MASS), 1.0)
    most, least = n * NEAR_CUT_MASS + slack, n * (NEAR_CUT_MASS - 2**-20) - slack
    if near_cut > most:
        answers.fail(f"{near_cut} of {whose} {n} weights lie between {NEAR_CUT:g} and 3 std; a normal cut at ±3 std "
                     f"puts about {n * NEAR_CUT_MASS:.0f} there (at most {most:.0f}): the draws beyond the cut were "
                     "moved just inside it (a clamp, however spread out), not drawn again. "
                     "nn.init.trunc_normal_(self.weight, std=std, a=-3 * std, b=3 * std) draws them again")
    if near_cut < least:
        answers.fail(f"only {near_cut} of {whose} {n} weights lie between {NEAR_CUT:g} and 3 std; a normal cut at ±3 "
                     f"std puts about {n * NEAR_CUT_MASS:.0f} there (at least {least:.0f}): the cut is tighter than "
                     "±3 std. nn.init.trunc_normal_(self.weight, std=std, a=-3 * std, b=3 * std)")
    for c in SHAPE_AT:  # the shape: as many weights below c std as the cut normal puts there
        mass = math.erf(c / math.sqrt(2)) / _MASS
        below = int(torch.count_nonzero(magnitude < c * std))
        slack = n * bernstein(n, mass * (1 - mass), 1.0) + n * 2**-20  # plus float32 rounding at c
        if abs(below - n * mass) > slack:
            answers.fail(f"{below} of {whose} {n} weights lie within {c:g} std of 0 ({below / n:.2%}); a normal cut "
                         f"at ±3 std puts {mass:.2%} there (between {n * mass - slack:.0f} and {n * mass + slack:.0f} "
                         "of them): the weights are not drawn from a normal, whatever their std and largest value. "
                         "nn.init.trunc_normal_(self.weight, std=std, a=-3 * std, b=3 * std)")
    # a pile at one magnitude (a clamp puts the 0.27% of draws beyond the cut on the bounds, about 1400 of
    # 2**19, whatever it is rescaled by afterwards): a continuous distribution's float32 draws repeat a value
    # a few times at most (about 2**24 values of a binade, against 2**19 draws)
    values, counts = _runs(magnitude)
    most = int(counts.max()) if counts.numel() else 0
    if n >= 2**14 and most > max(PILE, n * PILE_MASS):
        answers.fail(f"{most} of {whose} {n} weights have the same magnitude "
                     f"({values[counts.argmax()].item() / std:.4f} std): a truncated normal has no pile at any "
                     "value. Clamping the draws to ±3 std puts the 0.27% beyond the cut on the bounds; they must be "
                     "drawn again: nn.init.trunc_normal_(self.weight, std=std, a=-3 * std, b=3 * std) does it (and "
                     "drawing in a 16-bit dtype, then casting, leaves only that dtype's few values: draw in float32)")
    shared = int(counts[counts > 1].sum())
    if n >= 2**14 and shared > SHARED_MAX * n:
        answers.fail(f"{shared} of {whose} {n} weights ({shared / n:.0%}) share their magnitude with another weight, "
                     f"where independent draws share about 2% by chance: the weights are not drawn one by one (a "
                     "half mirrored, w and -w, or draws copied) or not in float32 (drawn in a 16-bit dtype and cast: "
                     "a few thousand values in all), whatever their spread. Draw every weight, in float32: "
                     "nn.init.trunc_normal_(self.weight, std=std, a=-3 * std, b=3 * std)")
    # the few a clamp leaves after drawing again once (0.27% of 0.27%: about 4 of 2**19) sit on the cut, all of
    # one magnitude (three or more in 73% of 2**19 draws, each; far more where there are several layers). A
    # truncated normal's largest magnitude is held by one weight, by two in about 1 of 500 draws of 2**19 here, and
    # by three never: the tail near the cut is thin against float32's spacing there
    top = int(torch.count_nonzero(magnitude == magnitude.max())) if n else 0
    if n >= 2**14 and top >= TOP_TIES:
        answers.fail(f"{top} of {whose} {n} weights sit exactly at the largest magnitude ({largest:.4f} std): draws "
                     "beyond the cut were clamped onto it. A truncated normal draws them again until they fall "
                     "inside (nn.init.trunc_normal_(self.weight, std=std, a=-3 * std, b=3 * std) does it)")


@settings(max_examples=2)  # 2 * 2**18 weights each
@given(case=S.cruncher_init_cases)
@example(case=(512, 2, 0))
@example(case=(2**19, 0, 1))  # no hidden layer: the final layer's 2**19 weights tell its draw as a hidden one's do
def test_cruncher_init(impl, case):
    """A fresh Cruncher's layers start as Linear starts them: each hidden layer's 2**18 weights and the
    final layer's 512 hold Linear's spread (``check_std``: Bernstein's bounds, which hold for any number
    of weights), none beyond the cut, each layer of 2**18 weights or more a truncated normal
    (``check_truncated``: its largest weight near the cut, no pile at 0; 2**18 weights put about 270
    beyond 2.9 std; a Cruncher of width 2**19 and no hidden layer has such a final layer), and no two
    hidden layers alike. A Cruncher only puts layers together: initialising them again (zeros for the
    last layer, std 0.02, a depth scaling) is not the spec's Cruncher, though it loads the spec's
    weights and runs them right. And the weights state_dict() shows are the ones it runs: a fresh
    Cruncher answers a few inputs as another does with that state dict loaded. That other one, built
    right after the first, starts with other weights: the caller's seed decides, not the model."""
    dim, num_layers, _ = case
    answers = no_problem(ask(impl, None, cruncher_init, *case))
    built = answers.got.weights
    keys = [f"layers.{i}.weight" for i in range(num_layers)] + ["final.weight"]
    for key in keys:
        weight = built.get(key)
        shape = (dim, dim) if key != "final.weight" else (dim, 1)
        if not isinstance(weight, torch.Tensor) or tuple(weight.shape) != shape or weight.dtype != torch.float32:
            answers.fail(f"Cruncher({dim}, {num_layers}).state_dict()[{key!r}] is not a float32 tensor of shape "
                         f"{shape} (test_cruncher_state_dict says what the layout must be)")
        weight, whose = weight.to(torch.float64), f"Cruncher({dim}, {num_layers}) as built: {key}'s"
        check_std(weight, answers, dim, whose=whose)
        if weight.numel() >= 2**18:
            check_truncated(weight, answers, dim, whose=whose)
        elif weight.abs().max().item() * math.sqrt(dim) > CUT * (1 + 1e-6):  # 512 weights: the cut alone
            answers.fail(f"{whose} largest |weight| is beyond 3 std; Linear's initialisation has none there")
    second = answers.got.second
    if all(isinstance(second.get(key), torch.Tensor) and torch.equal(second[key], built[key]) for key in keys):
        answers.fail(f"a second Cruncher({dim}, {num_layers}), built right after the first without seeding torch "
                     "again, starts with the very same weights: your Cruncher fixes the random state itself "
                     "(torch.manual_seed or a fork_rng inside), so every model starts alike and the caller's "
                     "torch.manual_seed changes nothing. Leave seeding to the caller: each Linear draws from "
                     "torch's default generator as it is")
    if num_layers > 1 and torch.equal(built[keys[0]], built[keys[1]]):
        answers.fail(f"Cruncher({dim}, {num_layers}) as built: {keys[0]} and {keys[1]} hold the same weights; "
                     "each layer is a Linear of its own and draws its own")
    output, reloaded = answers.got.output, answers.got.reloaded
    ran = [type(o) is torch.Tensor for o in (output, reloaded)]
    if ran[0] != ran[1] or all(ran) and not (output.shape == reloaded.shape and torch.equal(output, reloaded)):
        answers.fail(f"Cruncher({dim}, {num_layers}) as built answers otherwise than another Cruncher with its "
                     "state_dict() loaded: the weights state_dict() shows are not the ones the model runs with")


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


@settings(max_examples=2)  # and four explicit widths
@given(case=S.scale_cases)
@example(case=(64, 1024, S.SCALE_BATCH, 0))
@example(case=(128, 512, S.SCALE_BATCH, 0))
@example(case=(512, 128, S.SCALE_BATCH, 0))
@example(case=(1024, 64, S.SCALE_BATCH, 0))
def test_output_scale(impl, case):
    """y = Linear(input_dim, output_dim)(x), x (1024, input_dim) ~ N(0, 1): y = x @ weight, and
    std(y) ≈ 0.987 at every width.

    The band (0.820 to 1.156) holds for a correct Linear with probability above
    1 - 3e-9 (see ``output_std_band``); without 1/sqrt(input_dim) the std is
    sqrt(input_dim) >= 8, with 1/input_dim it is <= 0.125.
    """
    input_dim, output_dim, batch, seed = case
    answers = no_problem(ask(impl, None, linear_output, *case))
    y, weight = answers.got.output, answers.got.weight
    if not isinstance(y, torch.Tensor) or tuple(y.shape) != (batch, output_dim) or y.dtype != torch.float32:
        what = f"a {y.dtype} tensor of shape {tuple(y.shape)}" if isinstance(y, torch.Tensor) else type(y).__name__
        answers.fail(f"forward returned {what} for x of shape {(batch, input_dim)}; expected float32 of shape "
                     f"{(batch, output_dim)}")
    rows = scale_input(batch, input_dim, seed)[:64]  # the harness's x, made again here: a few rows show it
    if not isinstance(weight, torch.Tensor) or tuple(weight.shape) != (input_dim, output_dim) or \
            weight.dtype != torch.float32 or not torch.allclose(y[:64], rows @ weight, rtol=1e-4, atol=1e-4):
        answers.fail("forward(x) is not x @ weight for the layer's own weight: return x @ self.weight")
    std = math.sqrt(y.to(torch.float64).square().mean().item())
    low, high = output_std_band(input_dim * output_dim, batch)
    if not low <= std <= high:
        answers.fail(f"y = x @ weight has std {std:.4g} for x ~ N(0, 1); expected about {CUT_STD:.3f} whatever "
                     f"input_dim (between {low:.3f} and {high:.3f}): each output sums input_dim products, so the "
                     "weights need variance ~1/input_dim")
