"""Lazy Part 4: every answer has the right type and shape, and is wrong."""

from typing import NamedTuple


class LinearFlops(NamedTuple):
    forward: int
    backward_input: int
    backward_weight: int


def matmul_flops(m, k, n):
    return -1


def linear_flops(tokens, d_in, d_out):
    return LinearFlops(-1, -1, -1)


def training_flops(num_params, num_tokens):
    return -1.0


def training_seconds(total_flops, num_gpus, peak_flops_per_sec, mfu):
    return -1.0


def cruncher_flops(batch, dim, num_layers, input_requires_grad=False):
    return -1, -1


def count_matmul_flops(fn):
    fn()
    return -1
