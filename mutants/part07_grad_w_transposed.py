"""linear_backward computes grad_w = grad_yᵀ @ x: the transpose of the right answer ([d_out, d_in])."""
TARGET = "gradients"


def linear_backward(x, w, grad_y):
    return grad_y @ w.T, grad_y.T @ x
