"""Staff check: the Part 6 reference agrees with plain torch, its annotations really are
checked by the jaxtyping + beartype pair the tests use, and the probes see what they claim.
"""

import math
from pathlib import Path

import pytest
import torch
from beartype import beartype
from hypothesis import given
from jaxtyping import Float, TypeCheckError, jaxtyped

from grader.harness.impl import Implementation
from grader.harness.probes import part06 as P
from reference import named as R
from tests.strategies import part06 as S


def checked(fn):
    return jaxtyped(fn, typechecker=beartype)


@given(S.attention_cases())
def test_attention_scores_is_matmul_over_sqrt_dim(case):
    q, k = case
    # [batch heads seq_q dim] @ [batch heads dim seq_k], in float64
    expected = q.double().transpose(1, 2) @ k.double().permute(0, 2, 3, 1) / math.sqrt(q.shape[-1])
    torch.testing.assert_close(checked(R.attention_scores)(q, k).double(), expected,
                               rtol=1e-5, atol=1e-5 * float(expected.abs().max()))


@given(S.split_cases())
def test_split_heads_is_view_and_transpose(case):
    x, heads = case
    batch, seq, model = x.shape
    expected = x.view(batch, seq, heads, model // heads).transpose(1, 2)
    assert torch.equal(checked(R.split_heads)(x, heads), expected)
    assert torch.equal(checked(R.merge_heads)(expected), x)  # the inverse


@given(S.merge_cases())
def test_merge_heads_is_transpose_and_reshape(x):
    batch, heads, seq, head_dim = x.shape
    expected = x.transpose(1, 2).reshape(batch, seq, heads * head_dim)
    assert torch.equal(checked(R.merge_heads)(x), expected)


def test_docstring_examples():
    ones = torch.ones(2, 3, 8, 64)
    scores = R.attention_scores(ones, ones)
    assert scores.shape == (2, 8, 3, 3) and bool((scores == 8.0).all())
    x = torch.arange(12.0).reshape(1, 2, 6)
    split = R.split_heads(x, 2)
    assert split.tolist() == [[[[0, 1, 2], [6, 7, 8]], [[3, 4, 5], [9, 10, 11]]]]
    assert torch.equal(R.merge_heads(split), x)
    with pytest.raises(TypeCheckError):  # the module docstring's "try the checker yourself"
        checked(R.attention_scores)(torch.ones(3, 8, 64), torch.ones(2, 3, 8, 64))


def test_checker_pair_really_checks():
    """jaxtyping 0.3.11 + beartype 0.23.1 raise on a wrong argument and on a wrong result
    (typeguard 3/4 would silently check nothing); a correct call passes."""
    def wrong_result(
        q: Float[torch.Tensor, "batch seq_q heads dim"],
        k: Float[torch.Tensor, "batch seq_k heads dim"],
    ) -> Float[torch.Tensor, "batch heads seq_q seq_k"]:
        return torch.einsum("bihd,bjhd->bihj", q, k)  # [batch seq_q heads seq_k]

    q, k = torch.ones(2, 3, 4, 5), torch.ones(2, 6, 4, 5)
    assert checked(R.attention_scores)(q, k).shape == (2, 4, 3, 6)
    with pytest.raises(TypeCheckError):
        checked(R.attention_scores)(q[0], k)
    with pytest.raises(TypeCheckError):
        checked(R.attention_scores)(q, torch.ones(3, 6, 4, 5))
    with pytest.raises(TypeCheckError):
        checked(R.attention_scores)(q, torch.ones(2, 6, 4, 7))  # dim differs
    with pytest.raises(TypeCheckError):
        checked(R.attention_scores)(q.int(), k.int())  # Float
    with pytest.raises(TypeCheckError):
        checked(wrong_result)(q, k)


@pytest.mark.parametrize("call", [
    lambda: R.split_heads(torch.ones(1, 2, 6), 4),
    lambda: R.split_heads(torch.ones(1, 2, 6), 0),
    lambda: R.attention_scores(torch.ones(2, 3, 4), torch.ones(2, 3, 4, 5)),
    lambda: R.attention_scores(torch.ones(2, 3, 4, 5), torch.ones(3, 3, 4, 5)),
    lambda: R.attention_scores(torch.ones(2, 3, 4, 5), torch.ones(2, 3, 4, 6)),
], ids=["heads do not divide", "zero heads", "3-D q", "batch differs", "dim differs"])
def test_bad_arguments_raise_value_error(call):
    with pytest.raises(ValueError, match=r"\w"):
        call()


# ---------------------------------------------------------------- the probes themselves
class FakeImpl:
    """Just enough of an Implementation for a probe: functions by name, nothing owned."""

    package_dir = Path("/nonexistent/assignment")

    def __init__(self, **functions):
        self.functions = {"attention_scores": R.attention_scores, "split_heads": R.split_heads,
                          "merge_heads": R.merge_heads, **functions}

    def function(self, qualname):
        return self.functions[qualname.removeprefix("named.")]

    def module(self, short):
        return R

    def owns(self, filename):
        return False


def test_annotation_probe_verdicts():
    verdicts = P.annotation_verdicts(FakeImpl(), 2, 3, 4, 2, 5)
    for name in ("attention_scores", "split_heads", "merge_heads"):
        assert verdicts[name] == ("accepted", "")
    bad = {key: value for key, value in verdicts.items() if " " in key}
    assert len(bad) == 4 and all(kind == "TypeCheckError" for kind, _ in bad.values())

    def bare(q, k):
        return R.attention_scores(q, k)

    unannotated = P.annotation_verdicts(FakeImpl(attention_scores=bare), 2, 3, 4, 2, 5)
    assert unannotated["attention_scores"] == ("accepted", "")
    assert unannotated["attention_scores 3-D q"][0] == "ValueError"  # the body's own check


def test_checked_probe_reports_a_wrong_result_shape():
    def seq_first(q: Float[torch.Tensor, "batch seq_q heads dim"],
                  k: Float[torch.Tensor, "batch seq_k heads dim"]) -> Float[torch.Tensor, "batch heads seq_q seq_k"]:
        return torch.einsum("bihd,bjhd->bihj", q, k)

    result = P.checked_attention_scores(FakeImpl(attention_scores=seq_first),
                                        torch.ones(2, 3, 4, 5), torch.ones(2, 6, 4, 5))
    assert isinstance(result, str) and result.startswith("return value is f32[2,3,4,6]")


def test_einops_probe_counts_calls_and_restores():
    import einops

    original = einops.einsum
    args = (torch.ones(1, 2, 2, 3), torch.ones(1, 4, 2, 3), torch.ones(1, 2, 6), 2, torch.ones(1, 2, 2, 3))
    counts = P.einops_calls(FakeImpl(), *args)
    assert counts == {"attention_scores": {"einsum": 1, "rearrange": 0},
                      "split_heads": {"einsum": 0, "rearrange": 1},
                      "merge_heads": {"einsum": 0, "rearrange": 1}}
    assert einops.einsum is original

    def with_matmul(q, k):
        return q.transpose(1, 2) @ k.permute(0, 2, 3, 1) / math.sqrt(q.shape[-1])

    counts = P.einops_calls(FakeImpl(attention_scores=with_matmul), *args)
    assert counts["attention_scores"] == {"einsum": 0, "rearrange": 0}


FROM_IMPORT = """
import math
from einops import einsum, rearrange


def attention_scores(q, k):
    return einsum(q, k, "b i h d, b j h d -> b h i j") / math.sqrt(q.shape[-1])


def split_heads(x, num_heads):
    return rearrange(x, "b s (h d) -> b h s d", h=num_heads)


def merge_heads(x):
    return rearrange(x, "b h s d -> b s (h d)")
"""


def test_einops_probe_sees_names_imported_from_einops(tmp_path):
    """``from einops import einsum`` binds the function in the student's module: patched too."""
    (tmp_path / "fromimport").mkdir()
    (tmp_path / "fromimport" / "named.py").write_text(FROM_IMPORT)
    impl = Implementation("fromimport", tmp_path)
    args = (torch.ones(1, 2, 2, 3), torch.ones(1, 4, 2, 3), torch.ones(1, 2, 6), 2, torch.ones(1, 2, 2, 3))
    counts = P.einops_calls(impl, *args)
    assert [counts[name][op] for name, op in (("attention_scores", "einsum"), ("split_heads", "rearrange"),
                                              ("merge_heads", "rearrange"))] == [1, 1, 1]
    import einops
    assert impl.module("named").einsum is einops.einsum  # put back
