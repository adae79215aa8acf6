"""jaxtyping's symbolic dimensions are arithmetic where an implementation runs (grader/harness/jaxtyping_guard.py)."""

import builtins

import pytest
import torch

from grader.harness import jaxtyping_guard


@pytest.mark.parametrize("dim", ["d-1", "2*n", "(h*d)//2", "n+m", "-1+n", "n**2", "model/heads"])
def test_arithmetic_on_axis_names_is_kept(dim):
    assert jaxtyping_guard.arithmetic(dim)


@pytest.mark.parametrize("dim", ['(__import__("os"))or(1)', "len(x)", "x.grad", "{exec(c)}", "n if n else m",
                                 "[n][0]", "n.real", "1.5*n", "'a'", "lambda:0"])
def test_anything_else_is_refused(dim):
    assert not jaxtyping_guard.arithmetic(dim)


def test_installed_a_built_dimension_is_refused_before_it_runs():
    """A shape built at run time and handed to a jaxtyping type no reading can follow is refused as the type
    is made; a symbolic dimension of arithmetic is checked as jaxtyping checks it."""
    from jaxtyping import Float, Shaped, jaxtyped
    from typeguard import typechecked

    jaxtyping_guard.install()
    jaxtyping_guard.install()  # once is enough: a second install changes nothing
    payload = "(__import__('builtins').setattr(__import__('builtins'),'GUARD_RAN',1))or(1)".replace("'", '"')
    with pytest.raises(ValueError, match="not arithmetic"):
        Shaped[torch.Tensor, "n " + payload]
    assert not hasattr(builtins, "GUARD_RAN")

    @jaxtyped(typechecker=typechecked)
    def drop_first(x: Float[torch.Tensor, "n d"]) -> Float[torch.Tensor, "n d-1"]:
        return x[:, 1:]

    assert drop_first(torch.ones(3, 4)).shape == (3, 3)
