"""Judges of Part 2: where an NVFP4 value may round, besides the reference's answer."""

from __future__ import annotations

import math

import torch

from grader.harness.probes.part02 import Band, nvfp4_band

E2M1_GRID = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)
MIDPOINTS = torch.tensor([(a + b) / 2 for a, b in zip(E2M1_GRID, E2M1_GRID[1:])], dtype=torch.float64)
BELOW = torch.tensor(E2M1_GRID[:-1], dtype=torch.float64)
ABOVE = torch.tensor(E2M1_GRID[1:], dtype=torch.float64)
NEAR = 2.0**-20  # "near a midpoint", relative: well above any float32 rounding of x / scale


@nvfp4_band.implement
def band(x: torch.Tensor, block_size: int) -> Band:
    """Per value: the E2M1 neighbours around a nearby midpoint (dequantized), and whether the
    value is near one in a block whose scale is not a power of two (where every float32
    operation is exact, a tie must go to the even mantissa bit instead)."""
    n = x.numel()
    blocks = torch.nn.functional.pad(x.to(torch.float64), (0, -n % block_size)).view(-1, block_size)
    scale = blocks.abs().amax(dim=1, keepdim=True) / 6  # [blocks, 1]; float64: x / scale is near exact
    exact = torch.tensor([math.frexp(s)[0] in (0.0, 0.5) for s in scale.reshape(-1).tolist()],
                         dtype=torch.bool).reshape(-1, 1)  # [blocks, 1], none for an empty x
    r = (blocks / torch.where(scale > 0, scale, 1.0)).abs()
    close_to = (r.unsqueeze(-1) - MIDPOINTS).abs() <= NEAR * MIDPOINTS  # [blocks, size, 7]
    which = close_to.to(torch.int8).argmax(dim=-1)
    sign = torch.where(blocks < 0, -1.0, 1.0)
    low, high = sign * BELOW[which] * scale, sign * ABOVE[which] * scale
    near = close_to.any(dim=-1) & ~exact
    return Band(*(t.reshape(-1)[:n].contiguous() for t in (low, high, near)))
