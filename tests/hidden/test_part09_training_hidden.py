"""Part 9, hidden — runs of no steps, and optimizers other than AdamW (assignment/training.py).

Every public run takes at least one step, and every public optimizer is AdamW. The spec
asks more: ``train`` with ``num_steps = 0`` is no bad argument (only a negative one is)
and returns an empty list, leaving the model as it was; and a checkpoint holds "model and
optimizer state", whatever the optimizer keeps. Here each run trains the harness's model
with SGD with momentum (plain or Nesterov), RMSprop or Adagrad, for 0 to 12 steps (0
often; sizes, batches and steps past the public tests' ranges), then saves that
optimizer after as many steps in one process and loads it into a fresh model and
optimizer in another (the probes ``train_with``, ``checkpoint_file_with``,
``restore_checkpoint_with``).

Compared as in the public tests: the losses and parameters of ``train`` within a relative
1e-4 (plus 1e-6), and the round trip exactly: the step, every parameter and the
optimizer's whole state must come back bit for bit.

And a checkpoint that calls code is refused before any of it runs whatever it calls: the
public test's pickle makes a folder with ``os.mkdir`` and waits in ``time.sleep``, this one's
uses ``os.makedirs`` and ``select.select``, so a loader that runs the pickle with the public
test's functions made harmless is still seen here.
"""

from hypothesis import settings
from hypothesis import strategies as st

from grader.harness.ask import ask
from grader.harness.cases import example, given
from grader.harness.probes.part09 import CODE_SECONDS, checkpoint_file_with, restore_checkpoint_with, train_with
from grader.harness.schema import FLOAT, ListOf
from tests.strategies import part09 as S
from tests.test_part09_training import TRAINED, check_refuses_code, check_round_trip

OTHER_OPTIMIZERS = ["sgd_momentum", "sgd_nesterov", "rmsprop", "adagrad"]

# (optimizer, dim, num_layers, rows, batch_size, num_steps, seed): num_steps 0 half the time. Each range runs
# past the public strategies' (dim 6, 2 layers, 32 rows, batch 8 (get_batch's 16), 6 steps), which a student can
# read: a loop that trains only inside them (no step once the batch passes 8, none after the sixth) is seen here
runs = st.tuples(st.sampled_from(OTHER_OPTIMIZERS), st.integers(1, 12), st.integers(0, 4), st.integers(1, 80),
                 st.integers(1, 24), st.one_of(st.just(0), st.integers(0, 12)), S.seeds)


def check_run(impl, oracle, case):
    """``train`` with another optimizer: a list of num_steps floats, the reference's losses and parameters."""
    num_steps = case[5]
    answers = ask(impl, oracle, train_with, *case)
    losses = answers.where("losses")
    losses.check(ListOf(FLOAT, length=num_steps))
    losses.within(**TRAINED, problem=f"the losses of {num_steps} steps with {case[0]} differ from the reference's")
    answers.where("params").within(**TRAINED, problem=f"the parameters after {num_steps} steps with {case[0]} "
                                   "differ (no steps at all must leave them as they were)")


def check_optimizer_round_trip(impl, oracle, optimizer, dim, num_layers, seed, steps):
    """save_checkpoint after ``steps`` steps of ``optimizer``, load_checkpoint in another process: bit for bit."""
    check_round_trip(
        impl, oracle, (checkpoint_file_with, optimizer, dim, num_layers, seed, steps),
        (restore_checkpoint_with, optimizer, dim, num_layers, seed), steps,
        inputs=f"dim={dim}, num_layers={num_layers}, seed={seed}: torch's {optimizer} after {steps} steps (its "
               f"learning rate then halved), saved with save_checkpoint(path, model, optimizer, {steps}), loaded in "
               "another process",
        optimizer_problem=f"the fresh {optimizer}'s state (or its param_groups: the saved run's learning rate was "
                          "lowered) differs from the saved one after loading: save optimizer.state_dict() whatever "
                          "the optimizer, and load all of it with optimizer.load_state_dict")


@settings(max_examples=10)  # training runs and checkpoints cost the most
@given(case=runs)
@example(case=("sgd_momentum", 4, 2, 16, 8, 0, 0))  # no steps: an empty list, an untouched model
@example(case=("rmsprop", 3, 1, 16, 4, 3, 1))
@example(case=("adagrad", 9, 3, 60, 24, 9, 2))  # past every public bound at once (get_batch's batch of 16 too)
def test_empty_runs_and_other_optimizers(impl, oracle, case):
    optimizer, dim, num_layers, _, _, num_steps, seed = case
    check_run(impl, oracle, case)
    check_optimizer_round_trip(impl, oracle, optimizer, dim, num_layers, seed, num_steps)


# what the hidden checkpoint's pickle makes its folder with, waits in and rebuilds its step with, and its
# note's key: none of them the public test's, so a loader that refuses only files naming those (a search
# of the pickle for b"fractions") is no loader that refuses code
MAKES_ALL_THE_WAY = ("os", "makedirs")
WAITS_IN_SELECT = ("select", "select", ((), (), (), CODE_SECONDS))
STEP_AS_A_DECIMAL = ("decimal", "Decimal")
NOTE_AS_METADATA = "metadata"


@settings(max_examples=1)  # a refusing loader costs next to nothing; one that runs the pickle, CODE_SECONDS
@given(case=S.checkpoint_cases)
def test_load_checkpoint_refuses_code_whatever_it_calls(impl, oracle, case):
    check_refuses_code(impl, oracle, case, MAKES_ALL_THE_WAY, WAITS_IN_SELECT, STEP_AS_A_DECIMAL, NOTE_AS_METADATA)
