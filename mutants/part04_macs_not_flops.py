"""Counts multiply-adds, not FLOPs: a matmul is m*k*n (the factor 2 forgotten)."""
TARGET = "flops"


def matmul_flops(m, k, n):
    return m * k * n


def linear_flops(tokens, d_in, d_out):
    macs = tokens * d_in * d_out
    return LinearFlops(macs, macs, macs)
