"""time_matmul times trials + 1 products (range(trials + 1), a loop "to n inclusive") and divides by
trials: its figure is 10% high with the defaults, within what a busy machine does to a timing."""
TARGET = "roofline"

REPLACE = [
    ("""\
    for _ in range(trials):
        a @ b
    _synchronize(device)  # GPU kernels run asynchronously: wait before reading the clock
""", """\
    for _ in range(trials + 1):
        a @ b
    _synchronize(device)  # GPU kernels run asynchronously: wait before reading the clock
"""),
]
