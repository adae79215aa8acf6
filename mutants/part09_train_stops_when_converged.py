"""train stops early once a loss falls below 1e-4 ("converged"): fewer than num_steps losses, fewer steps
taken, on any run that fits its data; the short drawn runs never get there."""
TARGET = "training"

REPLACE = [
    ("""\
        losses.append(loss.item())  # a Python float: keeping the tensor would keep its graph
""", """\
        losses.append(loss.item())  # a Python float: keeping the tensor would keep its graph
        if losses[-1] < 1e-4:
            break
"""),
]
