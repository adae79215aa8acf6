"""flat_index sums index * stride with numpy int32: a position past 2**31 wraps around."""
TARGET = "strides"

APPEND = '''

def flat_index(index, strides, offset=0):
    import numpy as np
    if len(index) != len(strides):
        raise ValueError(f"index has {len(index)} dims but strides has {len(strides)}")
    terms = np.asarray(index, dtype=np.int32) * np.asarray(strides, dtype=np.int32)
    return offset + int(terms.sum(dtype=np.int32)) if index else offset
'''
