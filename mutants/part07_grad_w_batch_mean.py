"""linear_backward averages grad_w over the batch (divides by n) instead of summing."""
TARGET = "gradients"


def linear_backward(x, w, grad_y):
    return grad_y @ w.T, x.T @ grad_y / max(x.shape[0], 1)
