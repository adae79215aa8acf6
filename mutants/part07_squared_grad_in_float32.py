"""squared_error_grad computes in float32 whatever the input dtype, then casts back."""
TARGET = "gradients"


def squared_error_grad(x, w, target):
    x32 = x.float()
    return (x32 * (x32 @ w.float() - target)).to(x.dtype)
