"""Inputs for Part 9: dataset sizes, batches, short training runs and checkpoints, all from seeds.

Every scenario is small (a few rows, a few features, a few steps): the loop's
bugs show from the second step on, and the whole part must stay fast. One row
and batches bigger than the dataset are drawn too: sampling is with replacement.
"""

from __future__ import annotations

from hypothesis import strategies as st

seeds = st.integers(0, 2**32 - 1)

# (rows, cols, seed) of a .npy file: data as the module's docstring defines it, (N, dim + 1) with N >= 1 and
# dim >= 1 (an open_dataset that checks its data may refuse a single column)
dataset_cases = st.tuples(st.integers(1, 20), st.integers(2, 7), seeds)

# (rows, dim, batch_size, seed, memmap): data of shape (rows, dim + 1), in memory or memory-mapped
batch_cases = st.tuples(st.integers(1, 40), st.integers(1, 6), st.integers(1, 16), seeds, st.booleans())

# (dim, num_layers, rows, batch_size, num_steps, seed) of a training run on the harness's model
train_cases = st.tuples(
    st.integers(1, 6), st.integers(0, 2), st.integers(1, 32), st.integers(1, 8), st.integers(1, 6), seeds
)

# (dim, num_layers, seed, steps): a model and an AdamW that took `steps` steps, to save and load
checkpoint_cases = st.tuples(st.integers(1, 6), st.integers(0, 2), seeds, st.integers(1, 4))
