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
learning rate, 1e-2); a checkpoint round trip exactly: the file one process
writes must restore, in another process, every bit of the model and of AdamW.
Training tests draw 10 runs each, whatever the profile.
"""

import dataclasses
import io
import os
import secrets
import warnings
import zipfile

import torch
from hypothesis import settings
from hypothesis import strategies as st

from grader.harness.ask import Answers, ask, fail, require
from grader.harness.cases import example, given
from grader.harness.faults import StudentRaised
from grader.harness.probes.part09 import (
    CODE_SECONDS, DATASET, LARGE_COLS, LARGE_ROWS, MAKES, NOTE, REBUILDS, WAITS, checkpoint_file,
    coded_checkpoint_here, get_batch, get_large_batch, load_plain_checkpoint, load_refusing_code, open_dataset,
    open_large_dataset, restore_checkpoint, train, train_device,
)
from grader.harness.schema import FLOAT, INT, ListOf, Tensor, Tuple
from grader.harness.show import show
from grader.harness.source import raised_by_a_raise
from grader.harness.transport import Observe
from tests.strategies import part09 as S

TRAINED = dict(rel=1e-4, abs=1e-6)
FEW = settings(max_examples=10)  # training runs cost the most, and a loop's bugs show on any run


# --------------------------------------------------------------------------- data
LARGE = (LARGE_ROWS, LARGE_COLS, 5)  # a 32 MiB file: the one case opened with open_large_dataset


@given(case=S.dataset_cases)
@example(case=LARGE)
def test_open_dataset(impl, oracle, case):
    """A read-only memory map of the file (as the door sees the process's mappings), holding the saved
    values: the returned array's bytes must lie inside it. And for a file of 32 MiB, the process's
    resident memory must not rise by half the file's size in the call (as the door sees it from outside:
    a copy read into memory does, whatever the process says of where its array lies)."""
    answers = ask(impl, oracle, open_large_dataset if case == LARGE else open_dataset, *case,
                  observe=Observe(watch=DATASET))
    if case == LARGE and answers.seen.grew is not None:
        size = LARGE_ROWS * LARGE_COLS * 4
        answers.require(answers.seen.grew < size / 2,
                        f"read the file into memory: the process's resident memory rose by "
                        f"{answers.seen.grew / 2**20:.1f} MiB in the call, on a {size / 2**20:.0f} MiB file. Open it "
                        "lazily with np.load(path, mmap_mode='r'), a numpy.memmap that reads only the rows you "
                        "touch, and return it", show_values=False)
    mapped = answers.seen.mapped
    if mapped is not None:  # the kernel's word on how the file is open
        if not mapped:
            answers.fail("the file is not memory-mapped: the whole file was read into memory; open it lazily "
                         "with np.load(path, mmap_mode='r'), a numpy.memmap that reads only the rows you touch")
        if any("w" in m.perms for m in mapped):
            answers.fail("the memmap is writable (mode 'r+' or 'c'); open it with mmap_mode='r' so that "
                         "nothing can change the dataset on disk")
        start, size = answers.got.address, answers.got.nbytes
        if start is None or size is None:
            answers.fail(f"returned a {answers.got.type}; expected the numpy.memmap that "
                         "np.load(path, mmap_mode='r') returns")
        # a map of the file kept somewhere else proves nothing about the array returned: its bytes must be the map's
        inside = [m for m in mapped if m.start <= start and start + size <= m.end]
        if inside and all(m.inode != answers.got.inode for m in inside):
            answers.fail("the returned array maps another file of the same name (a copy), not the file at path: "
                         "return np.load(path, mmap_mode='r') of the path you are given")
        if not inside:
            answers.fail("the returned array is not the memory map of the file: its data lies outside every "
                         "mapping of it (it was read into memory, or copied, while another map of the file was "
                         "kept); return the result of np.load(path, mmap_mode='r') itself")
    elif answers.got.type != answers.expected.type:  # no /proc here: the returned object's own word
        answers.fail(f"returned a {answers.got.type}; expected a numpy.memmap from np.load(path, mmap_mode='r')")
    answers.where("values").same("the values differ from the saved array")


DEVICE_CASE = (4, 2, 3, 0, False)  # also asked for a batch on another device
LARGE_BATCH = (LARGE_ROWS, LARGE_COLS - 1, 16, 5, True)  # a batch of a memory map of the 32 MiB file


@given(case=S.batch_cases)
@example(case=DEVICE_CASE)
@example(case=LARGE_BATCH)
def test_get_batch(impl, oracle, case):
    """x = data[rows, :-1], y = data[rows, -1] for rows = rng.integers(0, len(data), size=batch_size),
    float32 on the CPU, and nothing else taken from ``rng`` (its next draw must agree); asked for another
    device (the meta device, which any machine has), both on that one. From a memory map of a 32 MiB file,
    the process's resident memory must not rise by half the file in the call, nor the process read half of
    it through read calls (a file streamed in chunks, which the page cache keeps out of resident memory), as
    the door sees both from outside: indexing the map with the rows reads just those."""
    rows, dim, batch_size, seed, _ = case
    if case == LARGE_BATCH:
        answers = ask(impl, oracle, get_large_batch, rows, dim + 1, batch_size, seed, observe=Observe(watch=DATASET))
        size = rows * (dim + 1) * 4
        if answers.seen.grew is not None:
            answers.require(answers.seen.grew < size / 2,
                            f"read the whole dataset into memory: the process's resident memory rose by "
                            f"{answers.seen.grew / 2**20:.1f} MiB in the call, for a batch of {batch_size} rows of a "
                            f"memory map of a {size / 2**20:.0f} MiB file. Index the memmap with the rows "
                            "(data[rows]), which reads just those, before making tensors", show_values=False)
        if answers.seen.read is not None:
            answers.require(answers.seen.read < size / 2,
                            f"read {answers.seen.read / 2**20:.1f} MiB through read calls in the call, for a batch "
                            f"of {batch_size} rows of a memory map of a {size / 2**20:.0f} MiB file: the file was "
                            "read, not its map indexed. Index the memmap with the rows (data[rows]), which reads "
                            "just those, before making tensors", show_values=False)
    else:
        answers = ask(impl, oracle, get_batch, *case)
    batch = answers.where("batch")
    batch.about("training.get_batch").check(Tuple(Tensor(torch.float32, (batch_size, dim), "cpu"),
                                                  Tensor(torch.float32, (batch_size,), "cpu")))
    batch.where(0).same("x differs: rows = rng.integers(0, len(data), size=batch_size) (with replacement), "
                        "then x = data[rows, :-1]")
    batch.where(1).same("y differs: y = data[rows, -1], the last column of the same rows")
    if answers.got.next_draw != answers.expected.next_draw:
        answers.fail("the batch is right but rng has moved on differently: take the rows with exactly "
                     "one call rng.integers(0, len(data), size=batch_size)")
    if case == DEVICE_CASE:
        check_batch_device(impl, case)


# what torch itself says where code for a GPU runs on a machine without one (pinned memory asks for an
# accelerator; an autocast for the device's type): the only refusals of a device that say nothing either way
WITHOUT_A_GPU = ("Cannot access accelerator device when none is available", "Torch not compiled with CUDA enabled",
                 "Found no NVIDIA driver", "No CUDA GPUs are available", "unsupported autocast device_type")


def device_refused(impl, raised: StudentRaised, function: str, inputs: str) -> None:
    """What a call asked for device='meta' raised: torch's own error for want of a GPU (pinned memory, an
    autocast: ``WITHOUT_A_GPU``, raised inside torch) says nothing either way; any other error refuses a
    device torch has, which the spec asks to serve: one the submission raised itself (``raise
    NotImplementedError("only the CPU")``, told by the statement the error left its code at, read from its
    source here), or one torch raised for its own reasons (``.item()`` of a batch on the meta device)."""
    if raised.exc_type in ("RuntimeError", "NotImplementedError") \
            and any(text in raised.message for text in WITHOUT_A_GPU) \
            and not raised_by_a_raise(impl.sources(), raised.where):
        return
    fail(function, f"asked for device='meta', it raised {raised.exc_type}: {raised.message}: serve whatever device "
         "it is given (torch.from_numpy(...).to(device)); refuse none (only torch's own refusal for want of a GPU, "
         "pinned memory on a machine without one, is excused here)", inputs=inputs)


def check_batch_device(impl, case) -> None:
    """x and y on ``device``. Code that cannot move a batch to the meta device (pinned memory for any
    device but the CPU, say) says nothing either way here: only a batch left elsewhere, or a device refused
    by the submission's own error, fails."""
    try:
        on = ask(impl, None, get_batch, *case, "meta").got.batch
    except StudentRaised as raised:
        device_refused(impl, raised, "training.get_batch", raised.inputs)
        return
    if on != ("meta", "meta"):
        fail("training.get_batch", f"asked for device='meta', it returned tensors on {on}: move both to the "
             "device it is given (torch.from_numpy(...).to(device))")


# --------------------------------------------------------------------------- training loop
def check_trajectory(impl, oracle, case):
    num_steps = case[4]
    answers = ask(impl, oracle, train, *case)
    losses = answers.where("losses")
    if type(losses.got) is list and any(isinstance(loss, torch.Tensor) for loss in losses.got):
        answers.fail("returned a list of tensors; expected a list of Python floats: append loss.item() "
                     "(a kept loss tensor also keeps its whole autograd graph alive)")
    losses.check(ListOf(FLOAT, length=num_steps))
    losses.within(**TRAINED, problem="the losses differ from the reference's: per step get_batch, forward, "
                  "F.mse_loss(pred, y), backward, optimizer.step(), optimizer.zero_grad() (train draws its batches "
                  "with your get_batch: where test_get_batch fails too, mend get_batch first)")
    answers.where("params").within(**TRAINED, problem="the parameters after training differ")
    answers.where("optimizer").within(**TRAINED, problem="the optimizer train was given holds other state after "
                                      "training: step the optimizer you are given (optimizer.step()), not one of "
                                      "your own, with the gradients of F.mse_loss(pred, y) as it is, its mean "
                                      "(Adam's steps hardly change when every gradient is scaled, its state does: "
                                      "a loss summed over the batch, or scaled, shows here)")
    return answers


@FEW
@given(case=S.train_cases)
@example(case=(4, 2, 16, 4, 4, 0))
@example(case=(4, 2, 16, 8, 3, 0))  # the docstring's: 3 steps of batch 8, a list of 3 floats
def test_train_trajectory(impl, oracle, case):
    """Each step's loss (a Python float), then the parameters after the last step, as the reference's,
    and the generator it was given moved on as the reference's; on data the model already fits (every
    loss about 0), still one loss per step; and asked for another device, train feeds the model
    batches there."""
    answers = check_trajectory(impl, oracle, case)
    # on data the model already fits, only counted: with gradients at rounding's size, AdamW's normalised
    # steps go wherever the rounding points
    dim, num_layers, rows, batch_size, num_steps, seed = case
    fitted = impl.run(train, *case, True).losses
    require(type(fitted) is not list or len(fitted) == num_steps, "training.train",
            f"returned {len(fitted or [])} loss(es) for num_steps={num_steps} on data the model already fits "
            "(every loss about 0): take every one of the num_steps steps and return each loss, however small "
            "(no early stop)", inputs=f"dim={dim}, num_layers={num_layers}, rows={rows}, batch_size={batch_size}, "
            f"num_steps={num_steps}, seed={seed}, on data whose targets are the model's own outputs",
            show_values=False)
    answers.where("next_draw").same("the generator train was given draws otherwise after it than the reference's: "
                                    "each step's get_batch draws from that generator itself (not a copy of it, not "
                                    "a generator of your own), so that the caller's goes on where training left it")
    try:
        fed = impl.run(train_device, dim, num_layers, rows, batch_size, seed, "meta").device
    except StudentRaised as raised:  # what it does for another device may need one (pin_memory() asks for a GPU)
        device_refused(impl, raised, "training.train", f"dim={dim}, num_layers={num_layers}, rows={rows}, "
                       f"batch_size={batch_size}, seed={seed}, device='meta'")
        return
    require(fed == "meta", "training.train", f"asked for device='meta', it fed the model a batch on {fed or 'nothing'}: "
            "pass train's device on to get_batch(data, batch_size, rng, device), which puts the batch there (train "
            "draws its batches with your get_batch: where test_get_batch fails too, mend get_batch first)",
            inputs=f"dim={dim}, num_layers={num_layers}, rows={rows}, batch_size={batch_size}, seed={seed}, "
                   "device='meta'", show_values=False)


@FEW
@given(case=S.train_cases)
def test_train_clears_gradients(impl, oracle, case):
    """The right training run, and after it every parameter's .grad None or zero: zero_grad comes last."""
    answers = check_trajectory(impl, oracle, case)
    dirty = sorted(name for name, state in answers.got.grads.items() if state == "nonzero")
    if dirty:
        answers.fail(f"after train, the .grad of {dirty} (of the test's own model, which train was given) is not "
                     "zero: the last step's gradients were left on the model (a zero_grad at the start of each "
                     "step leaves them; none at all lets them add up across steps). Call optimizer.zero_grad() "
                     "after optimizer.step() in every step")


# --------------------------------------------------------------------------- checkpoints
RESUMED_FROM = 1000  # the step a round trip saves exceeds its optimizer's own count by this


@FEW
@given(case=S.checkpoint_cases, resumed=st.booleans())
@example(case=(4, 2, 3, 0), resumed=True)
@example(case=(3, 1, 5, 0), resumed=False)  # a run saved before its first step: step 0 is no bad argument
def test_checkpoint_round_trip(impl, oracle, case, resumed):
    """save_checkpoint of a model and an AdamW that took ``steps`` steps (its learning rate then halved, as a
    schedule does), then load_checkpoint of that file, in another process, into a fresh model and AdamW: the
    step, every parameter and AdamW's whole state (its learning rate too) must come back bit for bit, and one
    more step must then move the model as it moves the reference's. The step saved is the one given: the
    optimizer's own count, or (``resumed``, a run resumed before) RESUMED_FROM more."""
    dim, num_layers, seed, steps = case
    step = steps + RESUMED_FROM if resumed else steps
    check_round_trip(impl, oracle, (checkpoint_file, *case, step), (restore_checkpoint, dim, num_layers, seed), step,
                     inputs=f"dim={dim}, num_layers={num_layers}, seed={seed}: an AdamW after {steps} steps (its "
                            f"learning rate then halved), saved with save_checkpoint(path, model, optimizer, {step}), "
                            "loaded in another process",
                     optimizer_problem="the fresh AdamW's state (exp_avg, exp_avg_sq, step of each parameter, "
                                       "and its param_groups: the saved run's learning rate was lowered) differs "
                                       "from the saved one after loading: save optimizer.state_dict() too and load "
                                       "all of it with optimizer.load_state_dict")


@FEW
@given(case=S.checkpoint_cases)
@example(case=(4, 2, 3, 0))
def test_load_checkpoint_refuses_code(impl, oracle, case):
    """load_checkpoint reads a checkpoint torch.save wrote (its step back, as an int, and its state into
    the model and the optimizer), and refuses one whose pickle calls a function to rebuild an object (here
    fractions.Fraction; os.system would be called the same way): torch.load(path, weights_only=True)
    refuses it with an UnpicklingError (an error of yours raised instead counts, where none of the file's
    code ran), weights_only=False runs it. Its pickle also makes a folder
    in /tmp and calls time.sleep(CODE_SECONDS), which the door sees from outside the process (the folder
    made in the call, even if removed again, the wait on its clock): refusing after running it is no refusal."""
    check_refuses_code(impl, oracle, case, MAKES, WAITS)


def check_refuses_code(impl, oracle, case, makes, waits, rebuilds=REBUILDS, note_key=NOTE) -> None:
    """``case``'s checkpoint loaded (its step and its state back, as the reference loads them), and, in a call of
    its own, its twin whose pickle calls functions refused before any runs: run, ``rebuilds`` rebuilds its step,
    ``makes`` makes a folder at a fresh path the door watches for from before the call, and ``waits`` waits
    CODE_SECONDS, which the door's clock sees."""
    dim, num_layers, seed, steps = case
    module, name, _ = waits
    rebuilt = ".".join(rebuilds)
    trace = f"/tmp/checkpoint-code-{secrets.token_hex(8)}"
    inputs = (f"dim={dim}, num_layers={num_layers}, seed={seed}, steps={steps}: a checkpoint of AdamW after {steps} "
              f"step{'s' if steps != 1 else ''} that this test saved itself, in the layout the docstring gives "
              f"(torch.save({{\"model\": model.state_dict(), \"optimizer\": optimizer.state_dict(), \"step\": {steps}}}, "
              f"path)), then the same with its step a {rebuilt} and a note whose pickle calls "
              f"{'.'.join(makes)} and {module}.{name}")
    try:
        plain = dataclasses.replace(ask(impl, None, load_plain_checkpoint, *case), inputs=inputs)
    except StudentRaised as raised:  # on the plain file: say whose file it was, and in what layout
        raise StudentRaised(raised.function, raised.exc_type, raised.message, raised.where, inputs) from None
    step = plain.got.step
    plain.require(type(step) is int and step == steps, f"returned {show(step)} for a checkpoint of step {steps} "
                  "that torch.save wrote; expected the saved step, as an int", show_values=False)
    # a refusal earns nothing from a loader that loads nothing: the plain file's state must come back
    expected = oracle.run(restore_checkpoint, dim, num_layers, seed, oracle.run(checkpoint_file, dim, num_layers,
                                                                                  seed, steps))
    loaded = Answers("training.load_checkpoint", inputs, plain.got, expected)
    loaded.where("params").same("the fresh model's state (parameters and buffers) differs from the saved model's "
                                "after loading the checkpoint torch.save wrote: load it with model.load_state_dict")
    loaded.where("optimizer").same("the fresh AdamW's state differs from the saved one after loading the checkpoint "
                                   "torch.save wrote: load it with optimizer.load_state_dict")
    # the coded file, in a call of its own that holds little but the load: a refusal takes milliseconds of it
    answers = dataclasses.replace(ask(impl, None, load_refusing_code, dim, num_layers, seed,
                                      coded_checkpoint_here(oracle, *case, trace, makes, waits, rebuilds, note_key),
                                      observe=Observe(trace=trace)),
                                  inputs=inputs)
    # refused: an error instead of a step (torch's UnpicklingError, or one of the loader's own in its place);
    # whether any of the file's code ran is seen from outside the process, below
    answers.require(bool(answers.got.refused),
                    f"loaded a checkpoint whose pickle calls {rebuilt} to rebuild its step: a checkpoint that "
                    "calls a function may as well call os.system. Load with torch.load(path, weights_only=True), "
                    "which refuses any function but the few a state dict needs, and raise (its error, or one of "
                    "your own) rather than retry with weights_only=False", show_values=False)
    if answers.seen.traced:
        if os.path.isdir(trace):  # the student's own run: the folder its loader made here
            os.rmdir(trace)
        answers.fail(f"ran the checkpoint's code: its pickle calls {'.'.join(makes)}({trace!r}), and that folder was "
                     "made (whatever was raised, removed again, or left running in a thread). Load with "
                     "torch.load(path, weights_only=True), which refuses the file before calling anything in it, "
                     "and let its error through")
    # a loader that raised while what it started runs on (the file loaded in a thread or process left behind):
    # that runs past the call's clock, and nothing of an honest refusal does
    answers.require(not answers.seen.left_running,
                    "raised while a thread or process it started in the call ran on: a refusal leaves nothing "
                    "running, and a load left running in the background may be running the checkpoint's code. Load "
                    "with torch.load(path, weights_only=True), which refuses the file before calling anything in it, "
                    "and let its error through", show_values=False)
    # run, the call lasts that long, whether its thread sleeps, waits for another or spins beside it; the door's
    # clock, outside the process, sees it. A refusal: milliseconds, on a busy machine a little more
    answers.require(answers.seen.wall_seconds < CODE_SECONDS * 0.8,
                    f"ran the checkpoint's code before refusing it: its pickle calls {module}.{name}, waiting "
                    f"{CODE_SECONDS:g} s, and the call took {answers.seen.wall_seconds:.3g} s where a refusal takes "
                    "milliseconds. Load with torch.load(path, weights_only=True), which refuses the file before "
                    "calling anything in it, and let its error through", show_values=False)


def check_file_holds_the_state(blob: bytes, expected_blob: bytes, step: int, inputs: str) -> None:
    """The file itself must hold every tensor of the state (the weights, the optimizer's moments and
    steps), read here with ``weights_only=True`` (no code of the file's runs): a restore in another
    process must owe nothing to anything but the file. Its step, where it is, is the plain int the
    layout documents: another loader (the refusal test's files are in that layout) reads it as one."""
    subject = "training.save_checkpoint"
    try:
        state = read_checkpoint(blob)
        held = _tensors(state)
    except Exception as error:  # noqa: BLE001 - whatever the file is, it is not a checkpoint
        fail(subject, f"the file at path is not a checkpoint grading reads ({type(error).__name__}: "
             f"{str(error)[:300]}): save a dict of the state dicts and the step with torch.save(checkpoint, path), "
             "its options left as they are",
             inputs=inputs)
    reference = read_checkpoint(expected_blob)
    expected = _tensors(reference)
    # each held tensor of a shape and dtype the state has, by its bytes: a file may hold 300,000 copies of
    # one decoy, and comparing each with each tensor of the state took a minute
    kinds = {(t.dtype, tuple(t.shape)) for t in expected}
    found = {_key(t) for t in held if (t.dtype, tuple(t.shape)) in kinds}
    for tensor in expected:
        if _key(tensor) in found:
            continue
        where = _where(reference)  # (the reference's own file: no knots to guard against)
        place = f" ({where[id(tensor)]} in the reference's file)" if id(tensor) in where else ""
        fail(subject, f"the file at path does not hold a {tuple(tensor.shape)} {tensor.dtype} tensor of the state"
             f"{place}: model.state_dict(), buffers included, and optimizer.state_dict() go in the file, every "
             "tensor as it is", inputs=inputs)
    # the layout the docstring gives, which every loader of it reads (the tests hand loaders files of it)
    keys = sorted(map(str, state)) if isinstance(state, dict) else None
    require(keys is not None and all(key in state for key in LAYOUT), subject,
            f"the file holds {'a dict keyed ' + show(keys) if keys is not None else show(type(state).__name__)}; "
            "the layout the docstring gives is a dict with \"model\", \"optimizer\" and \"step\" "
            "({\"model\": model.state_dict(), \"optimizer\": optimizer.state_dict(), \"step\": step}): any loader "
            "of that layout reads those keys, not only yours", inputs=inputs, show_values=False)
    optimizer = state["optimizer"]
    require(isinstance(optimizer, dict) and _same_plain(optimizer.get("param_groups"),
                                                        reference["optimizer"]["param_groups"]), subject,
            "the file's \"optimizer\" does not hold the optimizer's param_groups as optimizer.state_dict() gives "
            "them (its lr, betas, weight decay, ...: what a resumed run steps with, a lowered learning rate "
            "included): save the whole optimizer.state_dict()", inputs=inputs, show_values=False)
    saved = state["step"]
    require(type(saved) is int and saved == step, subject,
            f"the file's \"step\" is {show(saved)}; the layout holds the step given, as a plain int "
            f"({step}): any loader of that layout reads checkpoint[\"step\"] as one, not only yours",
            inputs=inputs, show_values=False)


LAYOUT = ("model", "optimizer", "step")


def _same_plain(got, expected) -> bool:
    """Whether two param_groups, as torch.load read them, are equal (no tensor in them compares as one)."""
    try:
        return bool(got == expected)
    except Exception:  # noqa: BLE001 - a tensor where a plain value is due: not the same
        return False


def _key(tensor: torch.Tensor) -> tuple:
    """A tensor as its dtype, shape and bytes (its bits: what "every tensor as it is" means)."""
    flat = tensor.detach().reshape(-1).contiguous()
    return tensor.dtype, tuple(tensor.shape), bytes(flat.view(torch.uint8).numpy()) if flat.numel() else b""


def read_checkpoint(blob: bytes):
    """What torch.load(weights_only=True) reads from the file, read only if the file is what torch.save
    writes: a zip whose entries are stored as they are. torch.load also inflates compressed entries, and
    this is the grading process: a few kilobytes of a compressed file could ask it for gigabytes."""
    try:
        with zipfile.ZipFile(io.BytesIO(blob)) as archive:
            entries = archive.infolist()
            # a zip from its first byte: torch.load reads anything else (data in front of a zip) in the legacy
            # format, which sizes its storages from the pickle before reading a byte of them
            if not blob.startswith(b"PK\x03\x04") or not entries or min(e.header_offset for e in entries) != 0:
                raise ValueError(NOT_A_ZIP)
            if any(e.compress_type != zipfile.ZIP_STORED for e in entries) \
                    or sum(e.file_size for e in entries) > len(blob):
                raise ValueError("its entries are compressed, which torch.save never does")
            pickles = [e for e in entries if e.filename.endswith("/data.pkl")]
            if len(pickles) != 1 or pickles[0].file_size > PICKLE_BYTES:
                raise ValueError("it does not hold the one data.pkl torch.save writes")
            pickle = archive.read(pickles[0])
    except zipfile.BadZipFile:
        raise ValueError(LEGACY if blob.startswith(b"\x80") else NOT_A_ZIP) from None
    only_what_torch_save_writes(pickle)
    try:
        with warnings.catch_warnings():  # torch's warning about a newer pickle protocol: said below if it fails
            warnings.simplefilter("ignore", UserWarning)
            return torch.load(io.BytesIO(blob), map_location="cpu", weights_only=True)
    except Exception as error:  # noqa: BLE001 - torch's own refusal, said in a line and not torch's page of advice
        why = str(error).rpartition("WeightsUnpickler error:")[2].strip().splitlines()
        protocol = pickle[1] if pickle[:1] == b"\x80" and len(pickle) > 1 else None
        hint = (f"; it is pickled with protocol {protocol}, which weights_only cannot read: leave torch.save's "
                "pickle_protocol as it is" if protocol is not None and protocol > 2 else "")
        raise ValueError(f"torch.load(path, weights_only=True) refuses it ({why[0] if why else type(error).__name__})"
                         + hint) from None


NOT_A_ZIP = "it is not the zip file torch.save writes"
LEGACY = ("it is in torch.save's legacy format (_use_new_zipfile_serialization=False), which grading does not read: "
          "a legacy file sizes its tensors from the pickle before reading them")


# weights_only lets a pickle call a few constructors, and one of them is bytearray: eight bytes of pickle
# asked the grading process for 2 GiB, as often as the file liked. So the file may name only what torch.save
# names for tensors, parameters and plain containers, and its pickle is small: a model's state is a few KB
# and about a thousand steps (opcodes), where 300,000 references to one tensor held a minute of reading.
PICKLE_BYTES = 1 * 2**20
PICKLE_STEPS = 50_000
_SAVED = {("collections", "OrderedDict"), ("torch._utils", "_rebuild_tensor_v2"),
          ("torch._utils", "_rebuild_tensor_v3"), ("torch._utils", "_rebuild_parameter"), ("torch", "Size"),
          ("torch", "device"),
          ("torch.storage", "UntypedStorage"), ("__builtin__", "set"), ("builtins", "set"),
          ("_codecs", "encode")}  # bytes, as protocol 2 writes them: as long as their text


def _saved_global(module: object, name: object) -> bool:
    if (module, name) in _SAVED:
        return True
    if module != "torch" or type(name) is not str:
        return False
    value = getattr(torch, name, None)  # a dtype (torch.bfloat16), or a storage class (torch.FloatStorage)
    return isinstance(value, torch.dtype) or (isinstance(value, type) and name.endswith("Storage")
                                               and issubclass(value, torch.storage.TypedStorage))


def only_what_torch_save_writes(pickle: bytes) -> None:
    """Refuse a pickle that names a global torch.save would not: its stack is followed (pickletools says
    what each opcode takes and leaves), so a name that protocol 4 builds from two strings is read too,
    and so are the arguments of ``_codecs.encode``: protocol 2 writes bytes as ``encode(text, "latin1")``,
    while ``encode`` of its own result in "hex", thirty times over, was a gigabyte from 1.2 KB."""
    import pickletools

    mark, other, encode = object(), object(), ("global", "_codecs", "encode")
    stack: list = []
    memo: dict = {}
    for step, (op, arg, _) in enumerate(pickletools.genops(pickle)):
        if step >= PICKLE_STEPS:
            raise ValueError(f"its pickle takes more than {PICKLE_STEPS} steps to read; a model's state takes "
                             "about a thousand")
        if op.name in ("EXT1", "EXT2", "EXT4"):  # a global by its number in copyreg's registry
            raise ValueError("it names a global by number, which torch.save does not write")
        named = None
        if op.name in ("GLOBAL", "INST"):
            module, _, name = arg.partition(" ")
            if not _saved_global(module, name):
                raise ValueError(f"it names {module}.{name}, which is no tensor, number, string or container: "
                                 "a checkpoint holds state dicts and the step (torch.load with weights_only=True "
                                 "refuses most other objects)")
            named = ("global", module, name)
        elif op.name == "STACK_GLOBAL":
            if len(stack) < 2 or not _saved_global(stack[-2], stack[-1]):
                raise ValueError("it names a global torch.save does not write")
            named = ("global", stack[-2], stack[-1])
        if op.name in ("MEMOIZE", "PUT", "BINPUT", "LONG_BINPUT"):
            if not stack or stack[-1] is mark:
                raise ValueError("it is not a pickle")
            memo[len(memo) if op.name == "MEMOIZE" else arg] = stack[-1]
            continue
        before, taken = op.stack_before, []
        if pickletools.markobject in before:
            at = next((i for i in range(len(stack) - 1, -1, -1) if stack[i] is mark), None)
            if at is None:
                raise ValueError("it is not a pickle")
            taken = stack[at + 1:]
            del stack[at:]
            before = before[:before.index(pickletools.markobject)]
        if len(stack) < len(before):
            raise ValueError("it is not a pickle")
        taken = stack[len(stack) - len(before):] + taken
        del stack[len(stack) - len(before):]
        if op.name in ("REDUCE", "NEWOBJ", "OBJ") and encode in taken[:1] + taken[-1:] and not (
                op.name == "REDUCE" and taken[0] == encode and type(taken[1]) is tuple and len(taken[1]) == 2
                and type(taken[1][0]) is str and taken[1][1] == "latin1"):
            raise ValueError("it calls _codecs.encode other than as torch.save writes bytes")
        if named is not None:
            stack.append(named)
        elif op.name in ("GET", "BINGET", "LONG_BINGET"):
            stack.append(memo.get(arg, other))
        elif op.name == "DUP":
            stack += taken * 2
        elif op.name in ("TUPLE", "TUPLE1", "TUPLE2", "TUPLE3", "EMPTY_TUPLE"):
            stack.append(tuple(taken))  # what a call is given: read where it matters (``encode``)
        else:
            stack += [mark if kind is pickletools.markobject else arg if type(arg) is str else other
                      for kind in op.stack_after]


def _where(value, path: str = "checkpoint") -> dict[int, str]:
    """Each tensor of a trusted state (the reference's checkpoint), by id: where it sits, as Python indexes it."""
    if isinstance(value, torch.Tensor):
        return {id(value): path}
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, (list, tuple)) else ()
    return {k: v for key, item in items for k, v in _where(item, f"{path}[{key!r}]").items()}


def _tensors(value) -> list[torch.Tensor]:
    """Every tensor inside ``value`` (dicts, lists and tuples opened), each container and each tensor
    once: a file may hold one list, or one tensor, many times over (a knot of 40 lists reads as 2**40
    paths)."""
    found, opened, todo = [], set(), [value]
    while todo:
        item = todo.pop()
        if isinstance(item, torch.Tensor):
            if id(item) not in opened:
                opened.add(id(item))
                found.append(item)
        elif isinstance(item, (dict, list, tuple)) and id(item) not in opened:
            opened.add(id(item))
            todo += list(item.values()) if isinstance(item, dict) else list(item)
    return found


def check_round_trip(impl, oracle, saving: tuple, restoring: tuple, steps: int, *, inputs: str,
                     optimizer_problem: str) -> None:
    """``saving`` (a probe and its arguments) writes a checkpoint in one process; ``restoring`` (a probe
    and its arguments, the file's bytes last) loads it in another: the step, the parameters and the
    optimizer's state must come back bit for bit, and training must go on from them (one more step)."""
    save, *save_args = saving
    restore, *restore_args = restoring
    blob = impl.run(save, *save_args)
    # a fixed file name (or a file on the side) loads fine where it was saved, never in a process of its own
    require(not (type(blob) is bytes and not blob), "training.save_checkpoint",
            "wrote nothing at the path it was given: write the checkpoint to `path` (the restore runs in a "
            "process of its own, in another folder, and reads only that file)", inputs=inputs, show_values=False)
    expected_blob = oracle.run(save, *save_args)
    check_file_holds_the_state(blob, expected_blob, steps, inputs)
    expected = oracle.run(restore, *restore_args, expected_blob)
    # its own file, then one this test saved in the documented layout: a loader reads that layout, whoever wrote it
    documented = (f"{inputs}; then the same state saved by this test itself in the layout the docstring gives "
                  "({\"model\": model.state_dict(), \"optimizer\": optimizer.state_dict(), \"step\": step}), "
                  "loaded with load_checkpoint")
    for file, said in ((blob, inputs), (expected_blob, documented)):
        got = impl.run(restore, *restore_args, file)
        answers = Answers("training.load_checkpoint", said, got, expected)
        answers.where("step").check(INT)
        answers.where("step").same(f"returned step {got.step!r}; expected {steps}, the step given to save_checkpoint")
        answers.where("params").same("the fresh model's state (parameters and buffers) differs from the saved "
                                     "model's after loading: save model.state_dict() and load it with "
                                     "model.load_state_dict")
        answers.where("optimizer").same(optimizer_problem)
        answers.where("resumed").same("after loading, one more optimizer.step() does not move the model's "
                                      "parameters as it moves the reference's: load into the model's own "
                                      "parameters (model.load_state_dict(state), not assign=True, which gives the "
                                      "model new tensors the optimizer does not hold)")
