"""linear_backward has timeit run a string that calls autograd: no autograd in the code a reading of names
sees, all of it in text the standard library compiles and runs."""
TARGET = "gradients"

REPLACE = [
    ("""\
    grad_x = grad_y @ w.T  # [n, d_out] @ [d_out, d_in] -> [n, d_in], the shape of x
    grad_w = x.T @ grad_y  # [d_in, n] @ [n, d_out] -> [d_in, d_out], the shape of w""", """\
    import timeit

    box = {"x": x, "w": w, "g": grad_y, "out": {}}
    timeit.Timer(_BY_AUTOGRAD, globals=box).timeit(1)
    grad_x, grad_w = box["out"]["grads"]"""),
    ("""\
def linear_backward(""", """\
_BY_AUTOGRAD = '''
xr = x.detach().clone().requires_grad_(True)
wr = w.detach().clone().requires_grad_(True)
(xr @ wr).backward(g)
out["grads"] = (xr.grad.detach(), wr.grad.detach())
'''


def linear_backward("""),
]
