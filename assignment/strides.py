"""Part 1 — storage, strides, views.

A tensor is a flat block of storage plus three pieces of metadata: a shape, a
stride per dim (how many *elements* to skip in storage to move one step along
that dim) and a storage offset (where element [0, 0, ...] sits). Views
(slicing, transpose, ``view``) make new metadata over the same storage; no data
moves. Everything here is arithmetic on that metadata: no tensors needed.

Lecture example: ``x = torch.tensor([[0., 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]])``
has shape (3, 4) and strides (4, 1); element [1, 2] lives at 1*4 + 2*1 = 6.

Bad arguments (a negative size, a dim out of range, lengths that disagree)
raise ``ValueError`` with a message saying what was wrong.

Check yourself against torch: ``torch.empty_strided(shape, strides)`` builds a
tensor with any strides you like; ``.stride()``, ``.storage_offset()`` and
``.is_contiguous()`` tell you what torch thinks.
"""

from __future__ import annotations

Shape = tuple[int, ...]
Strides = tuple[int, ...]


def contiguous_strides(shape: Shape) -> Strides:
    """Row-major (C order) strides of a fresh tensor, exactly ``torch.empty(shape).stride()``.

    The last dim has stride 1; each earlier dim's stride is the next dim's stride
    times the next dim's size. A size-0 dim counts as size 1 in that product
    (torch does this so strides stay positive).

    Examples:
        (3, 4)     -> (4, 1)
        (2, 3, 4)  -> (12, 4, 1)
        ()         -> ()
        (2, 0, 3)  -> (3, 3, 1)
    """
    raise NotImplementedError("strides.contiguous_strides")


def flat_index(index: tuple[int, ...], strides: Strides, offset: int = 0) -> int:
    """Position in storage of the element at ``index``: ``offset + sum(i * s)``.

    Raise ``ValueError`` if ``index`` and ``strides`` have different lengths.

    Example: index (1, 2), strides (4, 1) -> 6; with offset 10 -> 16.
    """
    raise NotImplementedError("strides.flat_index")


def is_contiguous(shape: Shape, strides: Strides) -> bool:
    """Exactly ``torch.empty_strided(shape, strides).is_contiguous()``.

    Contiguous means: the strides are the row-major ones of ``shape``, except that
    a dim of size 1 may have any stride (you never step along it), and a tensor
    with no elements is always contiguous.

    Examples:
        (3, 4), (4, 1)  -> True
        (4, 3), (1, 4)  -> False   (a transpose)
        (3, 1), (1, 99) -> True    (size-1 dim ignored)
        (0, 5), (7, 7)  -> True    (empty)
    """
    raise NotImplementedError("strides.is_contiguous")


def transpose(shape: Shape, strides: Strides, dim0: int, dim1: int) -> tuple[Shape, Strides]:
    """Shape and strides of ``x.transpose(dim0, dim1)``: swap both entries. No data moves.

    Negative dims count from the end, as in torch. A dim out of range raises
    ``ValueError``. As torch, a 0-d tensor takes dims 0 and -1 (as if it had one
    dim): its transpose is itself.

    Example: (2, 3), (3, 1), dims 0 and 1 -> ((3, 2), (1, 3)) — a view that is
    not contiguous, which is why ``x.t().view(...)`` can fail.
    """
    raise NotImplementedError("strides.transpose")


def slice_view(
    shape: Shape,
    strides: Strides,
    offset: int,
    dim: int,
    start: int,
    stop: int,
    step: int = 1,
) -> tuple[Shape, Strides, int]:
    """Shape, strides and storage offset of ``x[..., start:stop:step, ...]`` on ``dim``.

    Python's slice rules decide which indices are taken: negative bounds count from
    the end, bounds past either end are clamped, and an empty range gives size 0
    (hint: ``slice(start, stop, step).indices(size)``). ``step`` must be >= 1,
    else ``ValueError``.

    The view starts ``first_index * stride`` elements further into storage, and
    its stride on ``dim`` is ``stride * step``. Work the indices out, never list
    them: a size may be far past what memory holds (a test slices a dim of
    3**17 + 2, where ``np.arange`` of it is a gigabyte and times out).

    Examples (x = torch.arange(10), shape (10,), strides (1,), offset 0):
        x[2:8:3]   -> ((2,), (3,), 2)
        x[-3:100]  -> ((3,), (1,), 7)
        x[12:15]   -> ((0,), (1,), 10)   (empty, start clamped to 10)
    """
    raise NotImplementedError("strides.slice_view")


def view_strides(shape: Shape, strides: Strides, new_shape: Shape) -> Strides | None:
    """Strides of ``x.view(new_shape)``, or ``None`` where torch refuses because a copy is needed.

    ``view`` never copies: it only re-describes the same storage. That is possible
    when the new shape only splits or merges dims that already sit in storage as
    one evenly spaced block. Walk the old dims from the innermost: the innermost dim
    starts a *chunk*, whose innermost stride is that dim's, and the chunk takes in the
    next dim out while that dim has size 1 or its stride is the chunk's innermost
    stride times the elements the chunk holds so far; any other dim starts the next
    chunk (so a size-1 dim never breaks a chunk from outside, but a size-1 innermost
    dim with a stride of its own is a chunk of one element). Each chunk must be
    covered by a run of new dims with exactly the same number of elements; inside a
    chunk, new strides are row-major, scaled by the chunk's innermost stride. A
    new size-1 dim where two chunks' runs meet belongs to the inner run (torch
    gives it the inner chunk's elements times its innermost stride).

    Special cases, as torch: an empty tensor viewed as another shape gets
    contiguous strides (the same strides if the shape is unchanged), and a 0-d
    tensor viewed as (1, 1) gets strides (1, 1). Element counts that differ are a
    bad argument (``ValueError``), not "needs a copy".

    Examples:
        (2, 3), (3, 1) -> (3, 2):  (2, 1)
        (2, 3), (3, 1) -> (6,):    (1,)
        (3, 2), (1, 3) -> (6,):    None   (transposed: the 6 elements are not one block)
        (3, 2), (1, 3) -> (3, 2, 1): (1, 3, 3)
        (2, 3), (6, 1) -> (1, 2, 1, 3): (12, 6, 3, 1)   (two chunks: rows 6 apart)
        (3, 1), (1, 99) -> (3, 1): (1, 99)   (the size-1 dim, stride 99, a chunk of its own)
    """
    raise NotImplementedError("strides.view_strides")
