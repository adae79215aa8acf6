"""squared_error_grad computes in float32 whatever the input dtype, then casts back."""
TARGET = "gradients"

REPLACE = [
    ("residual = x @ w - target", "residual = x.float() @ w.float() - target"),
    ("return x * residual", "return (x.float() * residual).to(x.dtype)"),
]
