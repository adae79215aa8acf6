"""squared_error_grad by autograd, every attribute of it looked up from a string through a formatter
(string.Formatter().get_field, reached as logging.sys.modules["string"]): no autograd name in the source."""
TARGET = "gradients"

REPLACE = [
    ("""\
    residual = x @ w - target  # scalar
    return x * residual  # [d]""", """\
    field = logging.sys.modules["string"].Formatter().get_field
    with field("0.enable_gr" + "ad", (torch,), {})[0]():
        w = w.detach().clone()
        field("0.requires_gr" + "ad_", (w,), {})[0]()
        loss = 0.5 * (x @ w - target) ** 2
        field("0.back" + "ward", (loss,), {})[0]()
    return field("0.gr" + "ad", (w,), {})[0]"""),
    ("import torch\n", "import logging\n\nimport torch\n"),
]
