"""Times [m, k // 2] @ [k // 2, n] in place of the product asked for, but only where n is not thin: the
figure is about half a product's, every call is a real timing of real products (the worker held
stopped takes the stops in), and the thin product the watch counts op by op is left honest."""
TARGET = "roofline"

REPLACE = [
    ("""\
    a = torch.randn(m, k, dtype=dtype, device=device)  # random data: zeros run faster than real work
    b = torch.randn(k, n, dtype=dtype, device=device)
""", """\
    inner = max(1, k // 2) if device.type == "cpu" and n >= 64 else k
    a = torch.randn(m, inner, dtype=dtype, device=device)
    b = torch.randn(inner, n, dtype=dtype, device=device)
"""),
]
