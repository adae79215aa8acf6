"""Sleeps twice each timed product's time inside the timed loop: the figure is about three products'
time, measured by a clock around real products (the worker held stopped takes the stops in), and
the products fill the call's wall time as the figure says."""
TARGET = "roofline"

REPLACE = [
    ("""\
    for _ in range(trials):
        a @ b
""", """\
    for _ in range(trials):
        began = time.perf_counter()
        a @ b
        time.sleep(2 * (time.perf_counter() - began))
"""),
]
