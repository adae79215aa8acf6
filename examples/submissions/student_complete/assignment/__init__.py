"""Assignment 2: PyTorch building blocks and resource accounting.

Parts, one module each:
    strides          storage, strides and views
    dtypes           number formats (float16 ... NVFP4)
    memory           memory ledgers
    flops            FLOP accounting
    roofline         MFU and arithmetic intensity
    named            einops and jaxtyping
    gradients        gradients by hand
    model            Linear and Cruncher
    training         data, training loop, checkpoints
    mixed_precision  autocast
"""
