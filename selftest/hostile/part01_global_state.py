"""Changes torch's global state at import and in calls; its answers are otherwise correct. What a call
leaves changed fails that call; what the import changes is put back, charged to no call."""
TARGET = "strides"

import torch

torch.set_default_dtype(torch.float64)
torch.manual_seed(1234)
torch.set_num_threads(3)
torch.set_grad_enabled(False)

_view_strides = view_strides  # noqa: F821 - the reference's, defined above in this module


def view_strides(shape, strides, new_shape):
    torch.set_default_dtype(torch.float16)
    torch.set_grad_enabled(False)
    return _view_strides(shape, strides, new_shape)
