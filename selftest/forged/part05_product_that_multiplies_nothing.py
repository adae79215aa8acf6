"""Every other timed product is torch.addmm(out, a, b, beta=0, alpha=0): the call's own a and b, a product's
shapes in and out, and BLAS returns without multiplying. The fastest "product" the watch saw then costs next to
nothing, and every check that holds a figure against the products' cost holds it against that."""
TARGET = "roofline"

REPLACE = [
    ("""\
    for _ in range(trials):
        a @ b
""", """\
    out = torch.empty(m, n, dtype=dtype, device=device)
    for i in range(trials):
        if i % 2 == 0:
            a @ b
        else:
            torch.addmm(out, a, b, beta=0, alpha=0)
"""),
]
