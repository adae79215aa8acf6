"""Probes for Part 8: the implementation's ``Linear``, ``Cruncher`` and ``num_parameters``.

Modules are built here, on the implementation's side, from seeds; only what
they hold and return goes back (shapes, dtypes, the weight tensors themselves),
and every statistic is computed by the test, on the trusted side. When the
implementation's objects do not have the shape the spec promises (not an
``nn.Module``, no ``weight``, a state dict that does not load), the probe cannot
go on: its report's ``problem`` says so in plain words instead of failing inside
harness code, and the test reports it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn

from grader.harness.impl import Implementation
from grader.harness.probe import Report, probe

MODEL_PROBE_TIMEOUT = 20.0


class DeepLinear(nn.Module):
    """The harness's own deep linear model: ``num_layers`` dim×dim matmuls, then dim×1."""

    def __init__(self, dim: int, num_layers: int) -> None:
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(dim, dim, bias=False) for _ in range(num_layers))
        self.final = nn.Linear(dim, 1, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.layers:
            x = layer(x)
        return self.final(x).squeeze(-1)


class TiedEmbedding(nn.Module):
    """An embedding whose table is also the output projection: one parameter, used twice."""

    def __init__(self, vocab: int, dim: int) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.unembed = nn.Linear(dim, vocab, bias=False)
        self.unembed.weight = self.embed.weight


class ScaledHalf(nn.Module):
    """A bfloat16 layer and a learnable float64 temperature, a 0-d parameter: numbers are counted, not bytes
    or dimensions."""

    def __init__(self, dim: int) -> None:
        super().__init__()
        self.layer = nn.Linear(dim, dim, dtype=torch.bfloat16)
        self.temperature = nn.Parameter(torch.tensor(1.0, dtype=torch.float64))


def harness_module(kind: str, *sizes: Any) -> nn.Module:
    """A module of the harness's own, described by plain data (see ``harness_modules``)."""
    if kind == "mlp":  # sizes: (dims, bias)
        dims, bias = sizes
        layers: list[nn.Module] = []
        for d_in, d_out in zip(dims, dims[1:]):
            layers += [nn.Linear(d_in, d_out, bias=bias), nn.ReLU()]
        return nn.Sequential(*layers[:-1])
    if kind == "deep_linear":  # sizes: (dim, num_layers)
        return DeepLinear(*sizes)
    if kind == "linear_batchnorm":  # sizes: (dim,); BatchNorm1d adds 3 buffers, not parameters
        (dim,) = sizes
        return nn.Sequential(nn.Linear(dim, dim), nn.BatchNorm1d(dim))
    if kind == "tied_embedding":  # sizes: (vocab, dim)
        return TiedEmbedding(*sizes)
    if kind == "frozen_embedding":  # sizes: (vocab, dim); a pretrained table kept fixed is still a parameter
        vocab, dim = sizes
        model = nn.Sequential(nn.Embedding(vocab, dim), nn.Linear(dim, vocab))
        model[0].weight.requires_grad_(False)
        return model
    if kind == "scaled_half":  # sizes: (dim,); a bfloat16 Linear and a float64 scalar: dim * dim + dim + 1
        return ScaledHalf(*sizes)
    raise ValueError(f"unknown harness module {kind!r}")


def _seed(seed: int) -> None:
    # the CPU generator only, as grader.harness.torchstate.pristine does
    torch.default_generator.manual_seed(seed)


def _module_problem(what: str, value: Any) -> str | None:
    if isinstance(value, nn.Module):
        return None
    return f"{what} built an object of type {type(value).__name__}; expected a torch.nn.Module subclass"


# --------------------------------------------------------------------------- num_parameters
@probe(subject="model.num_parameters")
def num_parameters_of(impl: Implementation, module: tuple) -> Any:
    """``num_parameters`` of a harness-built module: no student class takes part."""
    return impl.function("model.num_parameters")(harness_module(*module))


@probe(subject="model.num_parameters")
def num_parameters_of_cruncher(impl: Implementation, dim: int, num_layers: int) -> Any:
    """``num_parameters(Cruncher(dim, num_layers))``, both the implementation's."""
    model = impl.function("model.Cruncher")(dim, num_layers)
    return impl.function("model.num_parameters")(model)


# --------------------------------------------------------------------------- Cruncher
@dataclass(frozen=True)
class Layout(Report):
    """What ``Cruncher(dim, num_layers)`` holds."""

    problem: str | None
    state_dict: dict[str, tuple[tuple[int, ...], torch.dtype]]  # key -> (shape, dtype)
    parameters: tuple[str, ...]  # the names named_parameters() gives, sorted


@probe(subject="model.Cruncher")
def cruncher_layout(impl: Implementation, dim: int, num_layers: int) -> Layout:
    """Keys, shapes and dtypes of ``Cruncher(dim, num_layers).state_dict()``, and which are parameters."""
    model = impl.function("model.Cruncher")(dim, num_layers)
    problem = _module_problem(f"Cruncher({dim}, {num_layers})", model)
    if problem:
        return Layout(problem, {}, ())
    state = {key: (tuple(value.shape), value.dtype) for key, value in model.state_dict().items()}
    return Layout(None, state, tuple(sorted(name for name, _ in model.named_parameters())))


def spec_weights(dim: int, num_layers: int, seed: int) -> dict[str, torch.Tensor]:
    """A state dict in the spec's layout, (input_dim, output_dim) per layer, from a seed.

    Scaled by 1/sqrt(dim) so every activation stays ~1 and float32 rounding stays tiny.
    """
    gen = torch.Generator().manual_seed(seed)
    state = {f"layers.{i}.weight": torch.randn(dim, dim, generator=gen) / dim**0.5 for i in range(num_layers)}
    state["final.weight"] = torch.randn(dim, 1, generator=gen) / dim**0.5
    return state


@dataclass(frozen=True)
class Forward(Report):
    problem: str | None
    output: Any  # what the model returned


@probe(subject="model.Cruncher")
def cruncher_forward(impl: Implementation, dim: int, num_layers: int, batch: int, seed: int) -> Forward:
    """Load ``spec_weights`` into the implementation's ``Cruncher`` and run it on x (batch, dim)."""
    model = impl.function("model.Cruncher")(dim, num_layers)
    problem = _module_problem(f"Cruncher({dim}, {num_layers})", model)
    if problem:
        return Forward(problem, None)
    try:
        model.load_state_dict(spec_weights(dim, num_layers, seed))
    except RuntimeError as error:  # torch's own words on the keys or shapes that do not fit
        return Forward(f"load_state_dict with the spec's keys and shapes failed: {error}", None)
    x = torch.randn(batch, dim, generator=torch.Generator().manual_seed(seed + 1))
    with torch.no_grad():
        out = model(x)
    return Forward(None, dense(out))


def dense(value: Any) -> Any:
    """A tensor as a plain row-major copy (a view may have any strides); anything else as it is."""
    if type(value) in (torch.Tensor, nn.Parameter):
        return value.detach().clone(memory_format=torch.contiguous_format)
    return value


# --------------------------------------------------------------------------- initialisation
def _linear(impl: Implementation, input_dim: int, output_dim: int, seed: int | None) -> tuple[Any, str | None]:
    """The implementation's ``Linear``, built after seeding torch (seed None: not seeded again), or a problem."""
    if seed is not None:
        _seed(seed)
    layer = impl.function("model.Linear")(input_dim, output_dim)
    problem = _module_problem(f"Linear({input_dim}, {output_dim})", layer)
    if problem:
        return None, problem
    weight = getattr(layer, "weight", None)
    if not isinstance(weight, torch.Tensor):
        return None, (f"Linear({input_dim}, {output_dim}).weight is {type(weight).__name__}; "
                      "expected an nn.Parameter of shape (input_dim, output_dim)")
    return layer, None


@dataclass(frozen=True)
class Init(Report):
    problem: str | None
    weight: Any  # a fresh Linear's weight, as it is
    second: Any  # the weight of another Linear of the same shape, built right after it
    again: Any  # the weight of a third, built after seeding torch again with the first's seed


@probe(subject="model.Linear", timeout=MODEL_PROBE_TIMEOUT)
def linear_init(impl: Implementation, input_dim: int, output_dim: int, seed: int) -> Init:
    """A fresh ``Linear(input_dim, output_dim).weight`` (torch seeded first), the weight of a second
    one built right after it without seeding again (a layer that draws from a generator of its own
    shows the same weights twice), and of a third built after seeding torch again with ``seed`` (a layer
    that draws from a generator torch does not seed shows other weights)."""
    layer, problem = _linear(impl, input_dim, output_dim, seed)
    if problem:
        return Init(problem, None, None, None)
    second, problem = _linear(impl, input_dim, output_dim, None)
    if problem:
        return Init(problem, None, None, None)
    third, problem = _linear(impl, input_dim, output_dim, seed)
    if problem:
        return Init(problem, None, None, None)
    return Init(None, dense(layer.weight), dense(second.weight), dense(third.weight))


@dataclass(frozen=True)
class SmallInits(Report):
    problem: str | None
    weights: Any  # the weight of each Linear, in the order of the shapes asked


@probe(subject="model.Linear", timeout=MODEL_PROBE_TIMEOUT)
def small_linears_init(impl: Implementation, shapes: tuple[tuple[int, int], ...], seed: int) -> SmallInits:
    """A fresh ``Linear(input_dim, output_dim).weight`` for each shape, one after another, torch seeded once
    first: layers of a few hundred weights, which no statistic of one layer tells apart, pooled by the test."""
    _seed(seed)
    weights = []
    for input_dim, output_dim in shapes:
        layer, problem = _linear(impl, input_dim, output_dim, None)
        if problem:
            return SmallInits(problem, None)
        weights.append(dense(layer.weight))
    return SmallInits(None, tuple(weights))


@dataclass(frozen=True)
class Built(Report):
    problem: str | None
    weights: dict[str, Any]  # each entry of a fresh Cruncher's state_dict, as built
    # what it returns for a few inputs, and what another Cruncher returns with those weights loaded (nn.Module's
    # own load_state_dict): a model whose state_dict shows other weights than it runs answers otherwise
    output: Any
    reloaded: Any
    # the state dict of that other Cruncher as built, right after the first (torch not seeded again): a model
    # that seeds torch itself (a "reproducible" model) starts every Cruncher with the same weights
    second: dict[str, Any] = dataclasses.field(default_factory=dict)


def _run(model: nn.Module, x: torch.Tensor) -> Any:
    """``model(x)``, or the name of what it raised."""
    try:
        with torch.no_grad():
            return dense(model(x))
    except Exception as error:  # noqa: BLE001 - a forward that fails is the forward test's business
        return type(error).__name__


@probe(subject="model.Cruncher", timeout=MODEL_PROBE_TIMEOUT)
def cruncher_init(impl: Implementation, dim: int, num_layers: int, seed: int) -> Built:
    """A fresh ``Cruncher(dim, num_layers)``'s state dict (torch seeded first), as its layers were built,
    and its outputs for a few inputs, beside those of another Cruncher with that state dict loaded."""
    _seed(seed)
    model = impl.function("model.Cruncher")(dim, num_layers)
    problem = _module_problem(f"Cruncher({dim}, {num_layers})", model)
    if problem:
        return Built(problem, {}, None, None)
    weights = {key: dense(value) for key, value in model.state_dict().items()}
    x = torch.randn(3, dim, generator=torch.Generator().manual_seed(seed + 1))
    output = _run(model, x)
    other = impl.function("model.Cruncher")(dim, num_layers)
    second = {key: dense(value) for key, value in other.state_dict().items()} \
        if isinstance(other, nn.Module) else {}
    try:
        nn.Module.load_state_dict(other, weights)
    except Exception as error:  # noqa: BLE001 - its own state dict does not load: said by the layout test
        return Built(None, weights, output, type(error).__name__, second)
    return Built(None, weights, output, _run(other, x), second)


@dataclass(frozen=True)
class Output(Report):
    problem: str | None
    weight: Any  # the layer's weight
    output: Any  # what the layer returned for ``scale_input(batch, input_dim, seed)``


def scale_input(batch: int, input_dim: int, seed: int) -> torch.Tensor:
    """The harness's x ~ N(0, 1), (batch, input_dim), from a seed: both sides can make it."""
    return torch.randn(batch, input_dim, generator=torch.Generator().manual_seed(seed + 1))


@probe(subject="model.Linear", timeout=MODEL_PROBE_TIMEOUT)
def linear_output(impl: Implementation, input_dim: int, output_dim: int, batch: int, seed: int) -> Output:
    """``Linear(input_dim, output_dim)(x)`` for the harness's x, with the layer's weight."""
    layer, problem = _linear(impl, input_dim, output_dim, seed)
    if problem:
        return Output(problem, None, None)
    with torch.no_grad():
        y = layer(scale_input(batch, input_dim, seed))
    return Output(None, dense(layer.weight), dense(y))


# --------------------------------------------------------------------------- backward
@dataclass(frozen=True)
class Backward(Report):
    """What backward through the implementation's ``Cruncher`` left in the harness's tensors."""

    problem: str | None
    output: Any  # what the model returned
    grads: dict[str, Any]  # each named parameter's .grad after backward (None: no gradient reached it)
    input_grad: Any  # the input's .grad


def backward_tensors(dim: int, batch: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    """The harness's input x (batch, dim), requiring grad, and the gradient sent back into the output (batch,)."""
    x = torch.randn(batch, dim, generator=torch.Generator().manual_seed(seed + 1)).requires_grad_(True)
    return x, torch.randn(batch, generator=torch.Generator().manual_seed(seed + 2))


@probe(subject="model.Cruncher")
def cruncher_backward(impl: Implementation, dim: int, num_layers: int, batch: int, seed: int) -> Backward:
    """Load ``spec_weights`` into the implementation's ``Cruncher``, run it on x (batch, dim) that
    requires grad, and backward from the output with a seeded gradient: every gradient it left."""
    model = impl.function("model.Cruncher")(dim, num_layers)
    problem = _module_problem(f"Cruncher({dim}, {num_layers})", model)
    if problem:
        return Backward(problem, None, {}, None)
    try:
        model.load_state_dict(spec_weights(dim, num_layers, seed))
    except RuntimeError as error:  # torch's own words on the keys or shapes that do not fit
        return Backward(f"load_state_dict with the spec's keys and shapes failed: {error}", None, {}, None)
    x, upstream = backward_tensors(dim, batch, seed)
    out = model(x)
    if type(out) in (torch.Tensor, nn.Parameter) and out.shape == upstream.shape and out.requires_grad:
        out.backward(upstream)
    # a Parameter's .grad is a plain tensor (or None); an output of the wrong shape or with no graph: none ran
    grads = {name: None if p.grad is None else dense(p.grad) for name, p in model.named_parameters()}
    return Backward(None, dense(out), grads, None if x.grad is None else dense(x.grad))
