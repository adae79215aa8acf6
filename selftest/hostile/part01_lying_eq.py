"""Answers with objects that claim to equal anything, and a tensor subclass that lies."""
TARGET = "strides"

import torch


class Anything(tuple):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = tuple.__hash__


class Liar(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return True


def contiguous_strides(shape):
    return Anything()


def view_strides(shape, strides, new_shape):
    return Anything((1,))


def transpose(shape, strides, dim0, dim1):
    return torch.zeros(2).as_subclass(Liar)
