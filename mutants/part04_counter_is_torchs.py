"""count_matmul_flops is torch's own FlopCounterMode, not a TorchDispatchMode of the four matmul ops: it
agrees wherever a function runs matmuls only, and counts the convolutions the spec leaves out."""
TARGET = "flops"

APPEND = '''

def count_matmul_flops(fn):
    from torch.utils.flop_counter import FlopCounterMode

    with FlopCounterMode(display=False) as counter:
        fn()
    return counter.get_total_flops()
'''
