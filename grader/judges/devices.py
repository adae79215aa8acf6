"""The device check's code: a small computation on the device, in a clean worker."""

from __future__ import annotations

import torch

from grader.harness.probes.devices import DeviceUsed, compute_on


@compute_on.implement
def compute(device: str) -> DeviceUsed:
    placed = torch.device(device)
    torch.ones(4, device=placed).add_(1).sum().item()  # .item() waits for the device
    return DeviceUsed(torch.cuda.get_device_name(placed) if placed.type == "cuda" else placed.type)
