"""Lazy Part 7: no autograd at all, and every gradient zero (the right dtype and shape, wrong)."""

import torch


def squared_error_grad(x, w, target):
    return torch.zeros_like(w)


def linear_backward(x, w, grad_y):
    return torch.zeros_like(x), torch.zeros_like(w)
