"""Lazy Part 2: every answer has the right type and shape, and is wrong."""

from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class FloatFormat:
    exponent_bits: int
    mantissa_bits: int
    special: str


@dataclass(frozen=True)
class FormatLimits:
    max: float
    smallest_normal: float
    smallest_subnormal: float
    eps: float


FP4_E2M1 = FloatFormat(1, 1, "ieee")


def float_format(dtype):
    return FloatFormat(1, 1, "ieee")


def format_limits(fmt):
    return FormatLimits(1.0, 1.0, 1.0, 1.0)


def bytes_per_element(dtype):
    return 3


def tensor_nbytes(shape, dtype):
    return 7


def underflows_to_zero(value, dtype):
    return False


def nvfp4_values():
    return [0.0] * 15


def nvfp4_nbytes(numel, block_size=16):
    return 0.0


def nvfp4_quantize(x, block_size=16):
    return torch.zeros_like(x)
