"""Parameter names of the spec's functions, used to print a failing call readably.

Calls through the door are positional (the spec fixes the order); these names
only label the arguments in messages. A probe not listed here shows arg0, arg1...
"""

from __future__ import annotations

SIGNATURES: dict[str, tuple[str, ...]] = {
    # Part 1
    "strides.contiguous_strides": ("shape",),
    "strides.flat_index": ("index", "strides", "offset"),
    "strides.is_contiguous": ("shape", "strides"),
    "strides.transpose": ("shape", "strides", "dim0", "dim1"),
    "strides.slice_view": ("shape", "strides", "offset", "dim", "start", "stop", "step"),
    "strides.view_strides": ("shape", "strides", "new_shape"),
    # Part 2
    "dtypes.float_format": ("dtype",),
    "dtypes.format_limits": ("fmt",),
    "dtypes.bytes_per_element": ("dtype",),
    "dtypes.tensor_nbytes": ("shape", "dtype"),
    "dtypes.underflows_to_zero": ("value", "dtype"),
    "dtypes.nvfp4_values": (),
    "dtypes.nvfp4_nbytes": ("numel", "block_size"),
    "dtypes.nvfp4_quantize": ("x", "block_size"),
    # Part 3
    "memory.training_ledger": ("num_params", "recipe"),
    "memory.max_trainable_params": ("hbm_bytes", "bytes_per_param"),
    "memory.matrix_bytes": ("rows", "cols", "dtype"),
    "memory.kv_cache_bytes": ("num_layers", "batch", "seq_len", "num_kv_heads", "head_dim", "dtype"),
    "memory.cruncher_activation_bytes": ("batch", "dim", "num_layers", "dtype"),
    # Part 4
    "flops.matmul_flops": ("m", "k", "n"),
    "flops.linear_flops": ("tokens", "d_in", "d_out"),
    "flops.training_flops": ("num_params", "num_tokens"),
    "flops.training_seconds": ("total_flops", "num_gpus", "peak_flops_per_sec", "mfu"),
    "flops.cruncher_flops": ("batch", "dim", "num_layers", "input_requires_grad"),
    "flops.count_matmul_flops": ("fn",),
    # Part 5
    "roofline.promised_flops_per_sec": ("device_name", "dtype"),
    "roofline.mfu": ("flops", "seconds", "peak_flops_per_sec"),
    "roofline.matmul_arithmetic_intensity": ("b", "d", "f", "bytes_per_element"),
    "roofline.ridge_point": ("peak_flops_per_sec", "bytes_per_sec"),
    "roofline.attainable_flops_per_sec": ("intensity", "peak", "bytes_per_sec"),
    "roofline.is_compute_bound": ("intensity", "peak", "bytes_per_sec"),
    "roofline.time_matmul": ("m", "k", "n", "dtype", "device", "warmup", "trials"),
    "roofline.measure_matmul_mfu": ("m", "k", "n", "dtype", "device"),
    # Part 6
    "named.attention_scores": ("q", "k"),
    "named.split_heads": ("x", "num_heads"),
    "named.merge_heads": ("x",),
    # Part 7
    "gradients.squared_error_grad": ("x", "w", "target"),
    "gradients.linear_backward": ("x", "w", "grad_y"),
    # Part 8
    "model.num_parameters": ("model",),
    # Part 9
    "training.open_dataset": ("path",),
    "training.get_batch": ("data", "batch_size", "rng", "device"),
    "training.train": ("model", "optimizer", "data", "num_steps", "batch_size", "rng", "device"),
    # Part 10
    "mixed_precision.needs_grad_scaler": ("dtype",),
    "mixed_precision.autocast_train_step": ("model", "optimizer", "x", "y", "dtype", "device_type", "scaler"),
}


def parameter_names(function: str) -> tuple[str, ...]:
    return SIGNATURES.get(function, ())
