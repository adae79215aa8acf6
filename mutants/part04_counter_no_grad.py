"""count_matmul_flops runs fn under torch.no_grad() "to save memory": backward cannot run."""
TARGET = "flops"


def count_matmul_flops(fn):
    counter = _MatmulCounter()
    with counter, torch.no_grad():
        fn()
    return counter.flops
