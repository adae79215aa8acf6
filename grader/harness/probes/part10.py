"""Probes for Part 10: one mixed-precision training step, and what it left behind.

The model, optimizer, data and GradScaler are the harness's own, built from the
arguments, so a bug in Part 8 (``Cruncher``) or Part 9 (``train``) cannot reach
Part 10: only ``autocast_train_step`` is the implementation's. Hooks copy out
what mixed precision is about, values and dtypes: each matmul's output, each
gradient as it reached its parameter, the loss tensor that backward started
from (or that the scaler was asked to scale); and after the step, the
parameters, the gradients left, the scaler's scale, and the batch as the caller
holds it. The tests hold these values against the reference's, so a report can
only pass by holding the numbers a real autocast step computes.

Those objects are the harness's own (a model class, a GradScaler subclass, hooks), which
a step could tell apart from a user's. ``scaler_steps`` runs the same scenario on plain
torch objects with nothing watching, and reports only what they show afterwards.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from dataclasses import dataclass
from typing import Any, Callable

import torch
from torch import nn
from torch.overrides import TorchFunctionMode

from grader.harness.impl import Implementation
from grader.harness.probe import Report, probe


class Matmul(nn.Module):
    """``x @ weight``, as the lecture's ``Linear``."""

    def __init__(self, weight: torch.Tensor) -> None:
        super().__init__()
        self.weight = nn.Parameter(weight)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x @ self.weight  # (batch, d_in) @ (d_in, d_out) -> (batch, d_out)


class DeepLinear(nn.Module):
    """The lecture's ``Cruncher``: ``num_layers`` dim×dim matmuls, then dim×1, output (batch,).

    ``shrink`` scales the final layer by 2**-shrink: every gradient below it then
    shrinks too, far enough (shrink 12) for float16 to flush them to zero unless
    a GradScaler scales the loss up first.
    """

    def __init__(self, dim: int, num_layers: int, shrink: int, generator: torch.Generator) -> None:
        super().__init__()
        self.layers = nn.ModuleList(Matmul(_weight(dim, dim, generator)) for _ in range(num_layers))
        self.final = Matmul(_weight(dim, 1, generator) * 2.0**-shrink)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.layers:
            x = layer(x)  # (batch, dim)
        return self.final(x).squeeze(-1)  # (batch,)


def _weight(d_in: int, d_out: int, generator: torch.Generator) -> torch.Tensor:
    # normal, cut at 3 std, std 1/sqrt(d_in): activations keep their size through the layers
    return torch.randn(d_in, d_out, generator=generator).clamp_(-3, 3) / math.sqrt(d_in)


class WatchedScaler(torch.amp.GradScaler):
    """A GradScaler that keeps a copy of each loss it is asked to scale.

    ``growth_interval=1`` makes one clean step double the scale (and an overflow
    halves it), so the scale after the step shows whether ``update()`` ran.
    """

    def __init__(self, device_type: str, init_scale: float) -> None:
        super().__init__(device_type, init_scale=init_scale, growth_interval=1)
        self.scaled: list[torch.Tensor] = []

    def scale(self, outputs):
        if isinstance(outputs, torch.Tensor):
            self.scaled.append(_copy(outputs))
        return super().scale(outputs)


class BackwardWatch(TorchFunctionMode):
    """Keeps a copy of every tensor that a backward pass starts from."""

    def __init__(self) -> None:
        super().__init__()
        self.roots: list[torch.Tensor] = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func is torch.Tensor.backward and args:
            self.roots.append(_copy(args[0]))
        elif func is torch.autograd.backward:
            tensors = args[0] if args else kwargs.get("tensors")
            for t in [tensors] if isinstance(tensors, torch.Tensor) else list(tensors or ()):
                self.roots.append(_copy(t))
        return func(*args, **kwargs)


def _copy(t: torch.Tensor) -> torch.Tensor:
    """A detached CPU copy (a view may have any strides: a plain row-major one)."""
    return torch.Tensor.detach(t).cpu().clone(memory_format=torch.contiguous_format)


def _optimizer(name: str, params, lr: float) -> torch.optim.Optimizer:
    if name == "sgd":  # an update that is exactly -lr * grad: shows every gradient error
        return torch.optim.SGD(params, lr=lr)
    if name == "adamw":
        return torch.optim.AdamW(params, lr=lr)
    raise ValueError(f"unknown optimizer {name!r}")


@dataclass(frozen=True)
class Step(Report):
    """One step as the harness's hooks and objects saw it (values and dtypes, copied out)."""

    loss: Any  # what autocast_train_step returned
    activations: list[torch.Tensor]  # each matmul layer's output, one per layer call, in call order
    backward_from: list[torch.Tensor]  # the tensors backward started from
    scaled: list[torch.Tensor] | None  # the losses given to scaler.scale (None: no scaler)
    grads: dict[str, list[torch.Tensor]]  # per parameter, each gradient as it was accumulated into it
    params: dict[str, torch.Tensor]  # the parameters after the step
    grads_left: list[str]  # parameters still holding a nonzero gradient afterwards
    steps: int  # optimizer.step() calls
    scale: float | None  # the scaler's scale afterwards
    # with tensors placed apart from device_type (``placed_on``): the error the step raised, if it refused the
    # mismatch (a check of its own, a move of x to device_type), else None
    refused: str | None = None
    # per gradient reaching a parameter, whether an autocast of device_type was on as it did: backward belongs
    # after the autocast block (its ops run in the dtypes the forward chose)
    autocast_in_backward: list[bool] = dataclasses.field(default_factory=list)
    # the caller's x and y after the step, as the caller holds them (a step casts copies, never its batch)
    batch_after: list[torch.Tensor] = dataclasses.field(default_factory=list)
    # per matmul layer call, whether an autocast of device_type to dtype was on as it ran (a forward cast by
    # hand, a mode of the step's own casting each op, gives autocast's dtypes and values without it)
    autocast_in_forward: list[bool] = dataclasses.field(default_factory=list)


def _scenario(seed: int, batch: int, dim: int, num_layers: int, optimizer: str, lr: float, shrink: int,
              device: str, build: Callable[..., nn.Module] = DeepLinear,
              ) -> tuple[nn.Module, torch.Tensor, torch.Tensor, torch.optim.Optimizer]:
    """A fresh model (``build(dim, num_layers, shrink, generator)``: DeepLinear, or ``_plain_model``), a batch x
    (batch, dim) and targets y (batch,) scaled by 2**-shrink like its final layer, all drawn from ``seed`` in this
    order, on ``device``; and the optimizer over the model."""
    generator = torch.Generator().manual_seed(seed)
    model = build(dim, num_layers, shrink, generator).to(device)
    x = torch.randn(batch, dim, generator=generator).to(device)
    y = (torch.randn(batch, generator=generator) * 2.0**-shrink).to(device)
    return model, x, y, _optimizer(optimizer, model.parameters(), lr)


def _grads_left(params: dict[str, torch.Tensor]) -> list[str]:
    """The names of the parameters still holding a nonzero gradient."""
    return sorted(name for name, p in params.items() if p.grad is not None and bool(p.grad.ne(0).any()))


@dataclass(frozen=True)
class PlainSteps(Report):
    """Steps on plain torch objects, seen only from outside: what each call returned and left behind."""

    losses: list[Any]  # what each call of autocast_train_step returned
    scales: list[float] | None  # the scaler's scale after each step (None: no scaler)
    params: dict[str, torch.Tensor]  # the parameters after the last step
    grads_left: list[str]  # parameters still holding a nonzero gradient afterwards
    batch_after: list[torch.Tensor]  # the caller's x and y after the steps


def _plain_model(dim: int, num_layers: int, shrink: int, generator: torch.Generator) -> nn.Module:
    """DeepLinear's network, drawn alike, as a user would build it: an nn.Sequential of bias-free nn.Linear
    layers and an nn.Flatten, with nothing of the harness's on it (no class, attribute or hook of its own)."""
    layers = [nn.Linear(dim, dim, bias=False) for _ in range(num_layers)] + [nn.Linear(dim, 1, bias=False)]
    with torch.no_grad():
        for i, layer in enumerate(layers):
            weight = _weight(dim, layer.out_features, generator)  # (d_in, d_out): Linear keeps its transpose
            layer.weight.copy_(weight.T * (2.0**-shrink if i == num_layers else 1.0))
    return nn.Sequential(*layers, nn.Flatten(0))  # (batch, 1) -> (batch,)


@probe(subject="mixed_precision.autocast_train_step", timeout=30)
def scaler_steps(impl: Implementation, seed: int, batch: int, dim: int, num_layers: int, optimizer: str, lr: float,
                 dtype: torch.dtype, device_type: str, init_scale: float | None, shrink: int,
                 count: int) -> PlainSteps:
    """``count`` calls of ``autocast_train_step`` on one plain model (``_plain_model``), a plain optimizer
    and, with ``init_scale``, a plain ``torch.amp.GradScaler(init_scale, growth_interval=1)`` (its scale doubles
    after a clean step and halves after an overflow, where ``update()`` runs every step), each call on the same
    batch. Nothing watches the calls: no subclass, hook or mode a step could tell from a user's own objects
    (``train_step``'s watched objects show what went wrong; these show that it goes right on anyone's)."""
    step = impl.function("mixed_precision.autocast_train_step")
    model, x, y, opt = _scenario(seed, batch, dim, num_layers, optimizer, lr, shrink, device_type, _plain_model)
    scaler = None if init_scale is None else torch.amp.GradScaler(device_type, init_scale=init_scale,
                                                                   growth_interval=1)
    losses, scales = [], []
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # (as train_step: tiny ops)
    try:
        for _ in range(count):
            losses.append(step(model, opt, x, y, dtype, device_type, scaler))
            if scaler is not None:
                scales.append(float(scaler.get_scale()))
    finally:
        torch.set_num_threads(threads)
    params = dict(model.named_parameters())
    return PlainSteps(
        losses=losses,
        scales=None if scaler is None else scales,
        params={name: _copy(p) for name, p in params.items()},
        grads_left=_grads_left(params),
        batch_after=[_copy(x), _copy(y)],
    )


def _left_to_defaults(args: dict) -> str:
    return ("the step was called as autocast_train_step(model, optimizer, x, y), dtype, device_type and scaler "
            "left to your defaults, which the spec makes torch.bfloat16, \"cpu\" and None" if args.get("by_default")
            else "")


@probe(subject="mixed_precision.autocast_train_step", timeout=30, note=_left_to_defaults)
def train_step(impl: Implementation, seed: int, batch: int, dim: int, num_layers: int,
               optimizer: str, lr: float, dtype: torch.dtype, device_type: str,
               init_scale: float | None, shrink: int, by_default: bool = False,
               placed_on: str | None = None) -> Step:
    """One ``autocast_train_step`` on a fresh DeepLinear model; what the hooks copied out.

    With ``init_scale`` a GradScaler(init_scale, growth_interval=1) is passed,
    else ``scaler=None``. Targets are scaled by 2**-shrink like the final layer.
    ``by_default`` (a bfloat16 CPU step without a scaler: the spec's defaults) calls
    it with ``model, optimizer, x, y`` alone, leaving the rest to its defaults. ``placed_on``: the device
    of the model and data, when not ``device_type``'s (CPU tensors under a CUDA autocast: none of their ops
    is cast, on any machine, so a step that autocasts another device than it was told shows).
    """
    if by_default and (dtype, device_type, init_scale) != (torch.bfloat16, "cpu", None):
        raise ValueError("by_default is for a bfloat16 CPU step without a scaler (the spec's defaults)")
    step = impl.function("mixed_precision.autocast_train_step")
    if placed_on is not None and init_scale is not None:
        raise ValueError("placed_on is for a step without a scaler (a scaler lives on device_type)")
    model, x, y, opt = _scenario(seed, batch, dim, num_layers, optimizer, lr, shrink, placed_on or device_type)
    scaler = None if init_scale is None else WatchedScaler(device_type, init_scale)

    activations: list[torch.Tensor] = []
    grads: dict[str, list[torch.Tensor]] = {name: [] for name, _ in model.named_parameters()}
    steps: list[int] = []
    in_autocast: list[bool] = []
    in_forward: list[bool] = []

    def ran(out: torch.Tensor) -> None:  # a matmul layer ran: its output, and whether autocast was on as asked
        activations.append(_copy(out))
        in_forward.append(torch.is_autocast_enabled(device_type) and torch.get_autocast_dtype(device_type) == dtype)

    for module in model.modules():
        if isinstance(module, Matmul):
            module.register_forward_hook(lambda m, args, out: ran(out))

    def reached(p: torch.Tensor, name: str) -> None:  # a gradient reached a parameter: it, and whether in autocast
        grads[name].append(_copy(p.grad))
        in_autocast.append(torch.is_autocast_enabled(device_type))

    for name, param in model.named_parameters():
        param.register_post_accumulate_grad_hook(lambda p, name=name: reached(p, name))
    opt.register_step_post_hook(lambda *_: steps.append(1))

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # the ops are tiny: waking a thread pool costs more than they do
    try:
        with BackwardWatch() as watch, warnings.catch_warnings():
            if placed_on is not None:  # a CUDA autocast on a machine without CUDA warns that it stands aside
                warnings.filterwarnings("ignore", "CUDA is not available", UserWarning)
            loss = step(model, opt, x, y) if by_default else step(model, opt, x, y, dtype, device_type, scaler)
    except Exception as exc:  # a step may refuse tensors that are not on device_type: the spec leaves it open
        if placed_on is None:
            raise
        return Step(loss=None, activations=[], backward_from=[], scaled=None, grads={}, params={}, grads_left=[],
                    steps=0, scale=None, refused=f"{type(exc).__name__}: {str(exc)[:200]}")
    finally:
        torch.set_num_threads(threads)

    params = dict(model.named_parameters())
    return Step(
        loss=loss,
        activations=activations,
        backward_from=watch.roots,
        scaled=None if scaler is None else scaler.scaled,
        grads=grads,
        params={name: _copy(p) for name, p in params.items()},
        grads_left=_grads_left(params),
        steps=len(steps),
        scale=None if scaler is None else scaler.get_scale(),
        autocast_in_backward=in_autocast,
        batch_after=[_copy(x), _copy(y)],
        autocast_in_forward=in_forward,
    )
