"""Part 3 — memory ledgers (assignment/memory.py).

Byte counts are exact integers, compared exactly; only ``max_trainable_params``
is a quotient (a float, to 1e-12 relative). On a CUDA device the ledger is
also held against what the allocator really hands out for a training step,
as the harness measures it in a process where no submission ever ran.
"""

import pytest
import torch

from grader.harness import spec
from grader.harness.ask import ask, check, require
from grader.harness.cases import example, given
from grader.harness.faults import named_inputs
from grader.harness.probes.part03 import cuda_step_allocations, ledger_total
from grader.harness.schema import INT, Tuple
from tests.strategies import part03 as S

training_ledger = spec.function("memory.training_ledger")
max_trainable_params = spec.function("memory.max_trainable_params")
matrix_bytes = spec.function("memory.matrix_bytes")
kv_cache_bytes = spec.function("memory.kv_cache_bytes")
cruncher_activation_bytes = spec.function("memory.cruncher_activation_bytes")
LEDGER = spec.record_schema("memory", "MemoryLedger")


@given(case=S.ledger_cases)
@example(case=(175_000_000_000, "fp32_adamw"))
@example(case=(1000, "fp32_adamw"))
@example(case=(1000, "bf16_mixed_adamw"))
def test_training_ledger(impl, oracle, case):
    """The drawn recipe first, then every other recipe at the same size: none can hide."""
    num_params, recipe = case
    for name in [recipe, *(r for r in S.RECIPES if r != recipe)]:
        ask(impl, oracle, training_ledger, num_params, name).same()


@given(fields=S.ledger_fields)
@example(fields={"parameters": 4, "master_parameters": 0, "gradients": 4, "optimizer_state": 8, "activations": 0})
@example(fields={"parameters": 4, "gradients": 4, "optimizer_state": 8})  # the docstring's: the rest default to 0
def test_ledger_total(impl, oracle, fields):
    """``MemoryLedger(**fields).total``, built from your own MemoryLedger; a line not given is 0. Then
    each line given is doubled in place: total follows the lines, read anew each time."""
    answers = ask(impl, oracle, ledger_total, fields, returns=Tuple(INT, INT))
    answers.check()
    answers.where(0).same()
    answers.where(1).same("total after each line given was doubled in place: work total out from the lines "
                          "each time it is read (a property), not once (a cached_property, a value kept from "
                          "__init__)")


@given(case=S.capacity_cases)
@example(case=(8 * 80 * 10**9, 18))
@example(case=(0, 18))  # no memory: no parameters (only a negative hbm_bytes is refused)
def test_max_trainable_params(impl, oracle, case):
    ask(impl, oracle, max_trainable_params, *case).within(rel=1e-12)


@given(case=S.matrix_cases)
@example(case=(12288, 49152, torch.float32))
@example(case=(3, 5, torch.bool))  # a bool is a byte, not a bit
@example(case=(2, 2, torch.complex64))  # a complex number is two floats: 8 bytes
@example(case=(10**7, 10**7, torch.float32))  # 400 TB, past any machine's address space: count, never allocate
def test_matrix_bytes(impl, oracle, case):
    ask(impl, oracle, matrix_bytes, *case).same()


@given(case=S.kv_cache_cases())
@example(case=(80, 1, 4096, 8, 128, torch.bfloat16))
@example(case=(32, 4, 131072, 8, 128, torch.bfloat16))  # a long context and a batch: every factor counts
@example(case=(80, 0, 4096, 8, 128, torch.bfloat16))  # an empty batch: 0 bytes (only negative sizes are refused)
@example(case=(80, 64, 10**6, 8, 128, torch.bfloat16))  # 21 PB: count the bytes, never allocate them
def test_kv_cache_bytes(impl, oracle, case):
    ask(impl, oracle, kv_cache_bytes, *case).same()


@given(case=S.activation_cases)
@example(case=(32, 64, 2, torch.float32))
def test_cruncher_activation_bytes(impl, oracle, case):
    ask(impl, oracle, cruncher_activation_bytes, *case).same()


# --------------------------------------------------------------------------- CUDA
BATCH, DIM, LAYERS = 128, 256, 4  # every tensor under 1 MB: the allocator's small pool, exact sizes
BLOCK = 512  # the CUDA caching allocator rounds every allocation up to a multiple of 512 bytes


@pytest.mark.cuda
def test_ledger_matches_cuda_allocator(impl, oracle):
    """One fp32 AdamW step of a Cruncher-shaped model on CUDA, phase by phase: your
    ``training_ledger(P, "fp32_adamw")`` and ``cruncher_activation_bytes`` against the
    bytes ``torch.cuda.memory_allocated`` gained. Each line may differ by 512 bytes per
    tensor allocated in that phase (the allocator's rounding; the forward phase also
    holds the model's output and the loss)."""
    if not oracle.available(cuda_step_allocations):
        pytest.skip("the allocator is measured when your submission is graded on a GPU")
    step = oracle.run(cuda_step_allocations, BATCH, DIM, LAYERS)
    num_params = LAYERS * DIM * DIM + DIM
    inputs = f"batch={BATCH}, dim={DIM}, num_layers={LAYERS}, one fp32 AdamW step on CUDA"
    ledger = check(impl.call(training_ledger, num_params, "fp32_adamw"), LEDGER, "memory.training_ledger",
                   named_inputs("memory.training_ledger", (num_params, "fp32_adamw")))
    predicted = {line: ledger.get(line) for line in ("parameters", "gradients", "optimizer_state")}
    activation_args = (BATCH, DIM, LAYERS, torch.float32)
    predicted["activations"] = check(impl.call(cruncher_activation_bytes, *activation_args), INT,
                                     "memory.cruncher_activation_bytes",
                                     named_inputs("memory.cruncher_activation_bytes", activation_args))
    for line, bytes_predicted in predicted.items():
        measured, tensors = step.measured[line], step.tensors[line]
        function = "memory.cruncher_activation_bytes" if line == "activations" else "memory.training_ledger"
        require(
            abs(bytes_predicted - measured) <= tensors * BLOCK, function,
            f"the ledger's {line} line is off: the allocator gained {measured:,} bytes for it "
            f"({tensors} tensors, so up to {tensors * BLOCK:,} bytes of rounding)",
            inputs=inputs, got=bytes_predicted, expected=measured,
        )
