"""linear_backward reshapes w to [d_out, d_in] instead of transposing it, for grad_x."""
TARGET = "gradients"


def linear_backward(x, w, grad_y):
    return grad_y @ w.reshape(w.shape[1], w.shape[0]), x.T @ grad_y
