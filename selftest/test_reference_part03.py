"""Staff check: the Part 3 reference agrees with real tensors, and rejects bad arguments.

Ledgers are held against the bytes of the tensors a real optimizer step creates,
activations against what autograd really saves (``saved_tensors_hooks``), and
sizes against meta tensors (a size without memory).
"""

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import memory as R
from tests.hidden import test_part03_memory_hidden as H
from tests.strategies import part03 as S


def nbytes(tensors):
    return sum(t.nbytes for t in tensors)


def moments(optimizer):
    """Optimizer state tensors of parameter size (not AdamW's scalar step counters)."""
    return [v for state in optimizer.state.values() for v in state.values() if v.dim() > 0]


def backward(params):
    sum((p.float() ** 2).sum() for p in params).backward()


def real_ledger(recipe, shapes):
    """The ledger of one real training step of parameters of these shapes, on the CPU."""
    if recipe == "bf16_mixed_adamw":
        master = [torch.nn.Parameter(torch.randn(s)) for s in shapes]
        weights = [p.detach().to(torch.bfloat16) for p in master]  # the copy forward reads
        optimizer = torch.optim.AdamW(master)
        backward(master)
        optimizer.step()
        return R.MemoryLedger(nbytes(weights), nbytes(master), nbytes(p.grad for p in master),
                              nbytes(moments(optimizer)))
    if recipe == "bf16_adamw":  # bf16 weights and gradients, fp32 moments (torch's AdamW keeps bf16 ones)
        weights = [torch.nn.Parameter(torch.randn(s, dtype=torch.bfloat16)) for s in shapes]
        backward(weights)
        states = [torch.zeros_like(p, dtype=torch.float32) for p in weights for _ in ("m", "v")]
        return R.MemoryLedger(nbytes(weights), 0, nbytes(p.grad for p in weights), nbytes(states))
    weights = [torch.nn.Parameter(torch.randn(s)) for s in shapes]
    optimizer = {
        "fp32_adamw": lambda: torch.optim.AdamW(weights),
        "fp32_sgd": lambda: torch.optim.SGD(weights, lr=0.1),
        "fp32_sgd_momentum": lambda: torch.optim.SGD(weights, lr=0.1, momentum=0.9),
    }[recipe]()
    backward(weights)
    optimizer.step()
    return R.MemoryLedger(nbytes(weights), 0, nbytes(p.grad for p in weights), nbytes(moments(optimizer)))


@pytest.mark.parametrize("recipe", S.RECIPES)
def test_training_ledger_is_a_real_step(recipe):
    shapes = [(7, 5), (5,), (3, 2, 4)]
    num_params = sum(math.prod(s) for s in shapes)
    assert R.training_ledger(num_params, recipe) == real_ledger(recipe, shapes)


@given(S.ledger_cases)
def test_training_ledger_scales_per_parameter(case):
    num_params, recipe = case
    per_param = R.training_ledger(1, recipe)
    ledger = R.training_ledger(num_params, recipe)
    assert ledger == R.MemoryLedger(*(num_params * getattr(per_param, f) for f in (
        "parameters", "master_parameters", "gradients", "optimizer_state", "activations")))


def test_lecture_totals():
    totals = {recipe: R.training_ledger(1, recipe).total for recipe in S.RECIPES}
    assert totals == {"fp32_adamw": 16, "bf16_mixed_adamw": 18, "bf16_adamw": 12,
                      "fp32_sgd": 8, "fp32_sgd_momentum": 12}


def saved_activation_bytes(batch, dim, num_layers, dtype):
    """Bytes of the non-parameter tensors autograd saves in a Cruncher-shaped forward."""
    weights = [torch.nn.Parameter(torch.randn(dim, dim, dtype=dtype)) for _ in range(num_layers)]
    weights.append(torch.nn.Parameter(torch.randn(dim, 1, dtype=dtype)))
    parameter_storage = {w.untyped_storage().data_ptr() for w in weights}
    saved = {}

    def pack(t):
        storage = t.untyped_storage()
        if storage.data_ptr() not in parameter_storage:
            saved[storage.data_ptr()] = storage.nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        x = torch.randn(batch, dim, dtype=dtype)
        for w in weights[:-1]:
            x = x @ w
        (x @ weights[-1]).squeeze(-1)
    return sum(saved.values())


@settings(max_examples=30)
@given(st.tuples(st.integers(1, 64), st.integers(1, 64), st.integers(0, 6), st.sampled_from(S.ACTIVATION_DTYPES)))
def test_cruncher_activations_are_what_autograd_saves(case):
    batch, dim, num_layers, dtype = case
    assert R.cruncher_activation_bytes(batch, dim, num_layers, dtype) == saved_activation_bytes(
        batch, dim, num_layers, dtype)


@given(S.matrix_cases)
def test_matrix_bytes_is_a_tensors(case):
    rows, cols, dtype = case
    assert R.matrix_bytes(rows, cols, dtype) == torch.empty(rows, cols, dtype=dtype, device="meta").nbytes


@given(S.kv_cache_cases())
def test_kv_cache_is_two_tensors(case):
    *sizes, dtype = case
    k = torch.empty(*sizes, dtype=dtype, device="meta")  # [layers, batch, seq, kv heads, head_dim]
    assert R.kv_cache_bytes(*sizes, dtype) == k.nbytes + torch.empty_like(k).nbytes


@settings(max_examples=60)
@given(st.one_of(st.just(H.ODD), H.huge_cases()))
def test_hidden_sizes_fit_meta_tensors(case):
    """The hidden test's huge sizes stay where the way the handout teaches still works: a
    meta tensor's ``nbytes`` (int64 sizes) gives every count exactly, as the reference does,
    and floats do not (the odd example is beyond 2**53 in every function)."""
    def meta(*shape, dtype):
        return torch.empty(*shape, dtype=dtype, device="meta").nbytes

    for recipe in S.RECIPES:
        assert R.training_ledger(case["num_params"], recipe).total < 2**63
    fp32 = R.training_ledger(case["num_params"], "fp32_adamw")
    assert fp32.parameters == meta(case["num_params"], dtype=torch.float32)
    assert sum(case["fields"].values()) < 2**63
    assert R.matrix_bytes(*case["matrix"]) == meta(*case["matrix"][:2], dtype=case["matrix"][2])
    *sizes, dtype = case["kv_cache"]
    assert R.kv_cache_bytes(*sizes, dtype) == 2 * meta(*sizes, dtype=dtype)
    batch, dim, num_layers, dtype = case["activations"]
    assert R.cruncher_activation_bytes(batch, dim, num_layers, dtype) == \
        (num_layers + 1) * meta(batch, dim, dtype=dtype)
    if case is H.ODD:
        counts = [R.matrix_bytes(*case["matrix"]), R.kv_cache_bytes(*case["kv_cache"]),
                  R.cruncher_activation_bytes(*case["activations"]), sum(case["fields"].values()),
                  R.training_ledger(case["num_params"], "fp32_adamw").total]
        assert all(float(c) != c for c in counts), counts



@given(S.capacity_cases)
def test_max_trainable_params_fills_memory(case):
    hbm, per_param = case
    params = R.max_trainable_params(hbm, per_param)
    assert type(params) is float
    assert math.isclose(params * per_param, hbm, rel_tol=1e-15)


def test_docstring_examples():
    assert R.MemoryLedger(parameters=4, gradients=4, optimizer_state=8).total == 16
    assert R.training_ledger(1000, "fp32_adamw") == R.MemoryLedger(4000, 0, 4000, 8000, 0)
    assert R.training_ledger(175_000_000_000, "fp32_adamw").total == 2_800_000_000_000
    assert repr(R.max_trainable_params(8 * 80e9, 18)) == "35555555555.55556"
    assert R.matrix_bytes(12288, 49152, torch.float32) == 2_415_919_104
    assert R.kv_cache_bytes(80, 1, 4096, 8, 128, torch.bfloat16) == 1_342_177_280
    assert R.cruncher_activation_bytes(32, 64, 2, torch.float32) == 24_576


@pytest.mark.parametrize("call", [
    lambda: R.training_ledger(-1, "fp32_adamw"),
    lambda: R.training_ledger(10, "fp32_adam"),
    lambda: R.training_ledger(10, None),
    lambda: R.max_trainable_params(-1, 16),
    lambda: R.max_trainable_params(80e9, 0),
    lambda: R.matrix_bytes(-1, 4, torch.float32),
    lambda: R.matrix_bytes(4, 4, "float32"),
    lambda: R.kv_cache_bytes(2, 1, -8, 1, 64, torch.bfloat16),
    lambda: R.kv_cache_bytes(2, 1, 8, 1, 64, 2),
    lambda: R.cruncher_activation_bytes(8, 4, -1, torch.float32),
    lambda: R.cruncher_activation_bytes(8, 4, 1, "fp32"),
], ids=["negative params", "unknown recipe", "recipe None", "negative hbm", "zero bytes per param",
        "negative rows", "string dtype", "negative seq_len", "int dtype", "negative layers",
        "activation string dtype"])
def test_bad_arguments_raise_value_error(call):
    with pytest.raises(ValueError, match=r"\w"):
        call()


def test_cuda_allocator_judge():
    """Without CUDA the allocator's judge refuses (a harness error, never a student's failure);
    with CUDA the reference's ledger must match the allocator within the test's rounding."""
    from grader.judges.part03 import measure
    from tests.test_part03_memory import BATCH, BLOCK, DIM, LAYERS

    if not torch.cuda.is_available():
        with pytest.raises(RuntimeError, match="cannot use CUDA"):
            measure(BATCH, DIM, LAYERS)
        return
    step = measure(BATCH, DIM, LAYERS)
    ledger = R.training_ledger(LAYERS * DIM * DIM + DIM, "fp32_adamw")
    predicted = {"parameters": ledger.parameters, "gradients": ledger.gradients,
                 "optimizer_state": ledger.optimizer_state,
                 "activations": R.cruncher_activation_bytes(BATCH, DIM, LAYERS, torch.float32)}
    for line, value in predicted.items():
        assert abs(value - step.measured[line]) <= step.tensors[line] * BLOCK, (line, step)
