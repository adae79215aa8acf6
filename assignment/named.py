"""Part 6 — einops and jaxtyping: name your axes.

Positional tensor code hides its meaning. In the lecture's words, can you tell at a
glance what these compute?

    scores = query @ key.transpose(-2, -1)            # which dims are -2 and -1?
    x = x.view(x.size(0), x.size(1), num_heads, -1)   # and what is -1?

With einops every axis has a name, and the pattern string says what happens to it:

    from einops import einsum, rearrange
    scores = einsum(query, key, "batch seq1 head dim, batch seq2 head dim -> batch head seq1 seq2")
    x = rearrange(x, "batch seq (heads dim) -> batch heads seq dim", heads=8)   # split
    x = rearrange(x, "batch heads seq dim -> batch seq (heads dim)")            # merge back

An axis named on both inputs of ``einsum`` but not in the output is summed over
(no transpose needed); parentheses in ``rearrange`` group axes into one.

jaxtyping puts the same names into the type annotations:

    x: Float[torch.Tensor, "batch seq heads dim"] = torch.ones(2, 3, 8, 64)

By default an annotation is only documentation. Wrapped with
``jaxtyping.jaxtyped(typechecker=typeguard.typechecked)`` it is checked at run time:
every tensor must have the annotated rank and a floating dtype, and an axis name must
have the same size everywhere it appears in one call (arguments and result). The
graded tests check every call of yours against your annotations with exactly that
pair (jaxtyping with typeguard 2.13.3), so:

* keep the annotations below as they are (they are part of the assignment),
* use ``einops.einsum`` and ``einops.rearrange`` as the docstrings say (a test reads
  your code for the calls, and calls each function once with einops' results
  doubled: its answer must double with them, as one that einops computes does;
  ``import einops`` or ``from einops import einsum, rearrange`` both work, and so
  does calling them from a helper function of this file), and
* return tensors of the inputs' dtype (float64 in, float64 out; bfloat16 in, bfloat16
  out).

Try the checker yourself::

    from typeguard import typechecked
    from jaxtyping import jaxtyped
    checked = jaxtyped(attention_scores, typechecker=typechecked)
    checked(torch.ones(3, 8, 64), torch.ones(2, 3, 8, 64))  # 3-D q: TypeCheckError
"""

import einops  # noqa: F401  (for you to use)
import torch
from jaxtyping import Float


def attention_scores(
    q: Float[torch.Tensor, "batch seq_q heads dim"],
    k: Float[torch.Tensor, "batch seq_k heads dim"],
) -> Float[torch.Tensor, "batch heads seq_q seq_k"]:
    """Attention scores ``q·kᵀ / sqrt(dim)`` for every head, with ``einops.einsum``.

    ``scores[b, h, i, j] = sum over d of q[b, i, h, d] * k[b, j, h, d]``, divided by
    ``sqrt(dim)`` (``dim`` is the size of the last axis). The division keeps the scores'
    spread about 1 whatever the head size: a dot product of ``dim`` terms of size ~1
    has a spread of about ``sqrt(dim)``.

    Name the axes in one einsum pattern: ``dim`` appears in both inputs but not in the
    output, so it is summed; ``batch`` and ``heads`` are shared and kept; ``seq_q`` and
    ``seq_k`` are kept as the last two axes of the result.

    Example (the lecture's shape, all ones): q = k = torch.ones(2, 3, 8, 64) gives
    shape (2, 8, 3, 3), every score 64 / sqrt(64) = 8.0.
    """
    raise NotImplementedError("named.attention_scores")


def split_heads(
    x: Float[torch.Tensor, "batch seq model"], num_heads: int
) -> Float[torch.Tensor, "batch heads seq head_dim"]:
    """Split the model axis into ``num_heads`` heads, with ``einops.rearrange``.

    The model axis is heads-major: head 0 owns the first ``head_dim = model // num_heads``
    features, head 1 the next ``head_dim``, and so on. The pattern is the lecture's
    ``"batch seq (heads head_dim) -> batch heads seq head_dim"``; tell rearrange the
    number of heads (``heads=num_heads``) and it infers ``head_dim``.

    Raise ``ValueError`` if ``num_heads`` is below 1 or does not divide ``model``.

    Example: x = torch.arange(12.).reshape(1, 2, 6) with num_heads = 2 gives shape
    (1, 2, 2, 3): head 0 is [[0, 1, 2], [6, 7, 8]] and head 1 is [[3, 4, 5], [9, 10, 11]].
    """
    raise NotImplementedError("named.split_heads")


def merge_heads(
    x: Float[torch.Tensor, "batch heads seq head_dim"],
) -> Float[torch.Tensor, "batch seq model"]:
    """Merge the heads back into one model axis (``model = heads * head_dim``): the exact
    inverse of ``split_heads``, with ``einops.rearrange``.

    ``merge_heads(split_heads(x, h))`` must give back ``x``, so the heads axis goes
    first inside the group: ``"batch heads seq head_dim -> batch seq (heads head_dim)"``.

    Example: merging the (1, 2, 2, 3) result of the ``split_heads`` example gives back
    torch.arange(12.).reshape(1, 2, 6), i.e. [[[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11]]].
    """
    raise NotImplementedError("named.merge_heads")
