"""Staff check: the Part 1 reference agrees with torch itself, and rejects bad arguments.

torch is the oracle of the oracle: every layout the graded tests draw is built
for real with ``torch.empty_strided`` and viewed, sliced, transposed by torch.
"""

import pytest
import torch
from hypothesis import given

from reference import strides as R
from tests.strategies import part01 as S


def real(shape, strides, offset=0):
    storage = torch.empty(1000)
    return storage.as_strided(shape, strides, offset) if shape else torch.empty_strided(shape, strides)


@given(S.shapes())
def test_contiguous_strides_is_torchs(shape):
    assert R.contiguous_strides(shape) == torch.empty(shape).stride()


@given(S.layouts())
def test_is_contiguous_is_torchs(layout):
    shape, strides = layout
    assert R.is_contiguous(shape, strides) == torch.empty_strided(shape, strides).is_contiguous()


@given(S.flat_index_cases())
def test_flat_index_is_storage_position(case):
    index, strides, *offset = case  # no offset: the default, 0
    shape = tuple(i + 1 for i in index)
    storage = torch.arange(2000)
    x = storage.as_strided(shape, strides, *offset)
    assert R.flat_index(*case) == int(x[index])


@given(S.transpose_cases())
def test_transpose_is_torchs(case):
    shape, strides, d0, d1 = case
    x = torch.empty_strided(shape, strides).transpose(d0, d1)
    assert R.transpose(shape, strides, d0, d1) == (tuple(x.shape), x.stride())


@given(S.slice_cases())
def test_slice_view_is_torchs(case):
    shape, strides, offset, dim, start, stop, *step = case  # no step: the default, 1
    x = real(shape, strides, offset)
    index = [slice(None)] * len(shape)
    index[dim] = slice(start, stop, *step)
    y = x[tuple(index)]
    assert R.slice_view(*case) == (
        tuple(y.shape), y.stride(), y.storage_offset())


@given(S.view_cases())
def test_view_strides_is_torchs(case):
    """Including the cases where torch raises because a copy would be needed."""
    shape, strides, new_shape = case
    x = torch.empty_strided(shape, strides)
    try:
        expected = x.view(new_shape).stride()
    except RuntimeError as error:
        assert "view size is not compatible" in str(error)
        expected = None
    assert R.view_strides(shape, strides, new_shape) == expected


def test_docstring_examples():
    assert R.contiguous_strides((2, 0, 3)) == (3, 3, 1)
    assert R.flat_index((1, 2), (4, 1), 10) == 16
    assert R.is_contiguous((3, 1), (1, 99)) and R.is_contiguous((0, 5), (7, 7))
    assert R.transpose((2, 3), (3, 1), 0, 1) == ((3, 2), (1, 3))
    assert R.slice_view((10,), (1,), 0, 0, 2, 8, 3) == ((2,), (3,), 2)
    assert R.slice_view((10,), (1,), 0, 0, -3, 100) == ((3,), (1,), 7)
    assert R.slice_view((10,), (1,), 0, 0, 12, 15) == ((0,), (1,), 10)
    assert R.view_strides((3, 2), (1, 3), (6,)) is None
    assert R.view_strides((3, 2), (1, 3), (3, 2, 1)) == (1, 3, 3)
    assert R.view_strides((3, 1), (1, 99), (3, 1)) == (1, 99)  # a size-1 innermost dim: a chunk of its own


@pytest.mark.parametrize("call", [
    lambda: R.contiguous_strides((2, -1)),
    lambda: R.flat_index((1, 2), (1,)),
    lambda: R.is_contiguous((2, 3), (1,)),
    lambda: R.transpose((2, 3), (3, 1), 0, 2),
    lambda: R.transpose((2, 3), (3, 1), -3, 0),
    lambda: R.slice_view((4,), (1,), 0, 0, 0, 4, 0),
    lambda: R.slice_view((4,), (1,), 0, 1, 0, 4, 1),
    lambda: R.slice_view((-4,), (1,), 0, 0, 0, 4, 1),
    lambda: R.view_strides((2, 3), (3, 1), (4,)),
    lambda: R.view_strides((2, 3), (3, 1), (-6,)),
], ids=["negative size", "index length", "strides length", "dim too big", "dim too small",
        "step 0", "slice dim", "slice negative size", "numel differs", "negative new size"])
def test_bad_arguments_raise_value_error(call):
    with pytest.raises(ValueError, match=r"\w"):
        call()
