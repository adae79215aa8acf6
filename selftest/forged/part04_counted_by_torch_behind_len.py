"""torch's FlopCounterMode counts, in a function a decorator binds as the module's `len`: count_matmul_flops
reads `len(fn)`, which a reading of its source takes for the builtin."""
TARGET = "flops"


def count_matmul_flops(fn):
    return len(fn)


def _as_len(fn):
    global len
    len = fn
    return fn


@_as_len
def _count(fn):
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    aten = torch.ops.aten
    with FlopCounterMode(display=False) as mode:
        fn()
    counts = mode.get_flop_counts().get("Global", {})
    return sum(v for k, v in counts.items() if k in (aten.mm, aten.addmm, aten.bmm, aten.baddbmm))
