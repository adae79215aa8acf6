"""Part 9 — data, the training loop, checkpoints (assignment/training.py).

Nothing here uses your Part 8 code: every run trains the harness's own deep
linear model (nn.Linear layers, output (batch,)) with torch's AdamW (lr 1e-2),
on data and a numpy generator made from the drawn seed, and the reference runs
the same scenario (the probes in grader/harness/probes/part09.py).

Comparisons: datasets, batches and the generator's state exactly (they are
copies of stored numbers); the losses and parameters of ``train`` within a
relative 1e-4 (correct ways of writing the loss, or a batch laid out
differently in memory, round differently by a few ulps, which AdamW carries
through a few steps; a forgotten ``zero_grad`` moves parameters by about the
learning rate, 1e-2); a checkpoint round trip exactly, since both sides train
with the harness's own loop and restoring a checkpoint restores every bit.
Training tests draw 10 runs each, whatever the profile.
"""

import torch
from hypothesis import example, given, settings

from grader.harness.door import describe_call
from grader.harness.expect import FLOAT, INT, Dict, ListOf, Tensor, Tuple, ask, check, close, fail, same
from grader.harness.oracle import cases
from tests.strategies import part09 as S

TRAINED = close(rel=1e-4, abs=1e-6)
FEW = settings(max_examples=10)  # training runs cost the most, and a loop's bugs show on any run


# --------------------------------------------------------------------------- data
@given(case=cases("training.open_dataset", S.dataset_cases))
def test_open_dataset(impl, oracle, case):
    """A read-only numpy.memmap over the file, holding the saved values."""
    got, expected, inputs = ask(impl, oracle, "training.open_dataset", *case)
    subject = "training.open_dataset"
    if got["type"] != expected["type"]:
        if got["type"] == "numpy.ndarray":
            fail(subject, "returned a numpy.ndarray: the whole file was read into memory; open it lazily "
                 "with np.load(path, mmap_mode='r'), a numpy.memmap that reads only the rows you touch", inputs)
        fail(subject, f"returned a {got['type']}; expected a numpy.memmap from np.load(path, mmap_mode='r')",
             inputs)
    if not got["read_only"]:
        fail(subject, "the memmap is writable (mode 'r+' or 'c'); open it with mmap_mode='r' so that "
             "nothing can change the dataset on disk", inputs)
    same(subject, got["values"], expected["values"], "the values differ from the saved array", inputs)


@given(case=cases("training.get_batch", S.batch_cases))
@example(case=(4, 2, 3, 0, False))
def test_get_batch(impl, oracle, case):
    """x = data[rows, :-1], y = data[rows, -1] for rows = rng.integers(0, len(data), size=batch_size),
    float32 on the CPU, and nothing else taken from ``rng`` (its next draw must agree)."""
    _, dim, batch_size, _, _ = case
    got, expected, inputs = ask(impl, oracle, "training.get_batch", *case)
    subject = "training.get_batch"
    shapes = Tuple(Tensor(torch.float32, (batch_size, dim), "cpu"), Tensor(torch.float32, (batch_size,), "cpu"))
    check(got, Dict(batch=shapes, next_draw=INT), subject, inputs)
    (x, y), (want_x, want_y) = got["batch"], expected["batch"]
    same(subject, x, want_x, "x differs: rows = rng.integers(0, len(data), size=batch_size) "
         "(with replacement), then x = data[rows, :-1]", inputs)
    same(subject, y, want_y, "y differs: y = data[rows, -1], the last column of the same rows", inputs)
    if got["next_draw"] != expected["next_draw"]:
        fail(subject, "the batch is right but rng has moved on differently: take the rows with exactly "
             "one call rng.integers(0, len(data), size=batch_size)", inputs)


# --------------------------------------------------------------------------- training loop
@FEW
@given(case=cases("training.train", S.train_cases))
@example(case=(4, 2, 16, 4, 4, 0))
def test_train_trajectory(impl, oracle, case):
    """Each step's loss (a Python float), then the parameters after the last step, as the reference's."""
    num_steps = case[4]
    got, expected, inputs = ask(impl, oracle, "training.train", *case)
    subject = "training.train"
    losses = got["losses"]
    if type(losses) is list and any(isinstance(loss, torch.Tensor) for loss in losses):
        fail(subject, "returned a list of tensors; expected a list of Python floats: append loss.item() "
             "(a kept loss tensor also keeps its whole autograd graph alive)", inputs)
    check(losses, ListOf(FLOAT, length=num_steps), subject, inputs)
    same(subject, losses, expected["losses"], "the losses differ from the reference's: per step get_batch, "
         "forward, F.mse_loss(pred, y), backward, optimizer.step(), optimizer.zero_grad()", inputs, TRAINED)
    same(subject, got["params"], expected["params"], "the parameters after training differ", inputs, TRAINED)


@FEW
@given(case=cases("training.train_leaves_grads", S.train_cases))
def test_train_clears_gradients(impl, case):
    """After ``train`` returns, every parameter's .grad is None or zero: zero_grad comes last in a step."""
    left = impl.run("training.train_leaves_grads", *case)
    dirty = sorted(name for name, state in left.items() if state == "nonzero")
    if dirty:
        fail("training.train", f"after train, the .grad of {dirty} is not zero: call optimizer.zero_grad() "
             "after optimizer.step() in every step, or gradients add up across steps",
             describe_call("training.train_leaves_grads", case))


# --------------------------------------------------------------------------- checkpoints
@FEW
@given(case=cases("training.checkpoint", S.checkpoint_cases))
@example(case=(4, 2, 16, 4, 3, 0))
def test_checkpoint_round_trip(impl, oracle, case):
    """num_steps steps, save_checkpoint, load_checkpoint into a fresh model and AdamW, num_steps more:
    the result must be bit for bit the reference's, which is 2 * num_steps steps straight."""
    got, expected, inputs = ask(impl, oracle, "training.checkpoint", *case)
    subject = "training.load_checkpoint"
    check(got["step"], INT, subject, inputs)
    if got["step"] != expected["step"]:
        fail(subject, f"returned step {got['step']}; expected {expected['step']}, the step given to "
             "save_checkpoint", inputs)
    if not got["restored_model"]:
        fail(subject, "the fresh model's parameters differ from the saved model's after loading: save "
             "model.state_dict() and load it with model.load_state_dict", inputs)
    if not got["restored_optimizer"]:
        fail(subject, "the fresh AdamW's state (exp_avg, exp_avg_sq, step of each parameter) differs from "
             "the saved one after loading: save optimizer.state_dict() too and load it with "
             "optimizer.load_state_dict", inputs)
    if got["problem"]:
        fail(subject, got["problem"], inputs)
    same(subject, got["optimizer"], expected["optimizer"], "AdamW's state after resuming differs", inputs)
    same(subject, got["params"], expected["params"], "the parameters after resuming differ", inputs)
