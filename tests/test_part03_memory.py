"""Part 3 — memory ledgers (assignment/memory.py).

Byte counts are exact integers, compared exactly; only ``max_trainable_params``
is a quotient (a float, to 1e-12 relative). On a CUDA device the ledger is
also held against what the allocator really hands out for a training step.
"""

import pytest
import torch
from hypothesis import example, given

from grader.harness.expect import FLOAT, INT, RecordOf, agree, agree_run, check, close, require
from grader.harness.oracle import cases
from tests.strategies import part03 as S

LEDGER = RecordOf("MemoryLedger", "dataclass", parameters=INT, master_parameters=INT,
                  gradients=INT, optimizer_state=INT, activations=INT)


@given(case=cases("memory.training_ledger", S.ledger_cases))
@example(case=(175_000_000_000, "fp32_adamw"))
@example(case=(1000, "bf16_mixed_adamw"))
def test_training_ledger(impl, oracle, case):
    """The drawn recipe first, then every other recipe at the same size: none can hide."""
    num_params, recipe = case
    for name in [recipe, *(r for r in S.RECIPES if r != recipe)]:
        agree(impl, oracle, "memory.training_ledger", num_params, name, returns=LEDGER)


@given(fields=cases("memory.ledger_total", S.ledger_fields))
@example(fields={"parameters": 4, "master_parameters": 0, "gradients": 4,
                 "optimizer_state": 8, "activations": 0})
def test_ledger_total(impl, oracle, fields):
    """``MemoryLedger(**fields).total``, built from your own MemoryLedger."""
    agree_run(impl, oracle, "memory.ledger_total", fields, returns=INT,
              subject="memory.MemoryLedger.total")


@given(case=cases("memory.max_trainable_params", S.capacity_cases))
@example(case=(8 * 80 * 10**9, 18))
def test_max_trainable_params(impl, oracle, case):
    agree(impl, oracle, "memory.max_trainable_params", *case, returns=FLOAT, compare=close(rel=1e-12))


@given(case=cases("memory.matrix_bytes", S.matrix_cases))
@example(case=(12288, 49152, torch.float32))
def test_matrix_bytes(impl, oracle, case):
    agree(impl, oracle, "memory.matrix_bytes", *case, returns=INT)


@given(case=cases("memory.kv_cache_bytes", S.kv_cache_cases()))
@example(case=(80, 1, 4096, 8, 128, torch.bfloat16))
def test_kv_cache_bytes(impl, oracle, case):
    agree(impl, oracle, "memory.kv_cache_bytes", *case, returns=INT)


@given(case=cases("memory.cruncher_activation_bytes", S.activation_cases))
@example(case=(32, 64, 2, torch.float32))
def test_cruncher_activation_bytes(impl, oracle, case):
    agree(impl, oracle, "memory.cruncher_activation_bytes", *case, returns=INT)


# --------------------------------------------------------------------------- CUDA
BATCH, DIM, LAYERS = 128, 256, 4  # every tensor under 1 MB: the allocator's small pool, exact sizes
BLOCK = 512  # the CUDA caching allocator rounds every allocation up to a multiple of 512 bytes


@pytest.mark.cuda
def test_ledger_matches_cuda_allocator(impl):
    """One fp32 AdamW step of a Cruncher-shaped model on CUDA, phase by phase: your
    ``training_ledger(P, "fp32_adamw")`` and ``cruncher_activation_bytes`` against the
    bytes ``torch.cuda.memory_allocated`` gained. Each line may differ by 512 bytes per
    tensor allocated in that phase (the allocator's rounding; the forward phase also
    holds the model's output and the loss)."""
    report = impl.run("memory.cuda_step_ledger", BATCH, DIM, LAYERS)
    if report is None:
        pytest.skip("needs a CUDA device")
    inputs = f"batch={BATCH}, dim={DIM}, num_layers={LAYERS}, one fp32 AdamW step on CUDA"
    ledger = check(report["ledger"], LEDGER, "memory.training_ledger", inputs)
    predicted = {line: ledger.get(line) for line in ("parameters", "gradients", "optimizer_state")}
    predicted["activations"] = check(report["activations"], INT, "memory.cruncher_activation_bytes", inputs)
    for line, bytes_predicted in predicted.items():
        measured, tensors = report["measured"][line], report["tensors"][line]
        function = "memory.cruncher_activation_bytes" if line == "activations" else "memory.training_ledger"
        require(
            abs(bytes_predicted - measured) <= tensors * BLOCK, function,
            f"the ledger's {line} line is off: the allocator gained {measured:,} bytes for it "
            f"({tensors} tensors, so up to {tensors * BLOCK:,} bytes of rounding)",
            inputs=inputs, got=bytes_predicted, expected=measured,
        )
