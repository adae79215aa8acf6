"""Sleeps twice each timed product's time inside the timed loop, but only where it sees no watch (a tiny op
tens of microseconds slower): the watched products and their figure are honest, and no figure is held against
them from above (a busy machine stretches an honest one 3x). The kernel tells the call's own waits from the
machine's: seen from outside, the call waits off the CPU for most of its time."""
TARGET = "roofline"

REPLACE = [
    ("""\
    for _ in range(trials):
        a @ b
""", """\
    tiny = torch.empty(4)
    began = time.perf_counter()
    for _ in range(200):
        tiny.view(-1)
    watched = (time.perf_counter() - began) / 200 > 8e-6
    for _ in range(trials):
        began = time.perf_counter()
        a @ b
        if not watched:
            time.sleep(2 * (time.perf_counter() - began))
"""),
]
