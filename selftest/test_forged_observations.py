"""Staff check: an observation a submission forges earns nothing (issue: nothing a worker reports is believed).

A submission runs in the same process as the probes that watch it, so it can
replace them, take off their hooks and call them itself, fake the type of what
it returns, or burn and pad the time of a call. None of that may decide a score:
every fact a test scores is computed on the trusted side from plain values, seen
from outside the worker (its clocks, its memory maps), read from its source (never
run), or held against values it cannot produce without doing the work.

Each submission in ``selftest/forged/`` is the reference with one function
replaced by a forgery; a real batch (isolation on, the grader's recording) grades
each on its own part (``--parts-of``) next to an honest one. Each must lose exactly
the tests it attacks (for Part 10, a step without autocast loses every test of
the step's values, and those whose properties only count under autocast: its
forward must run under it) and keep every other test of its part, so a loss
below is the attack stopped, not a side effect.
"""

from __future__ import annotations

import json

import pytest

from grader import mutants
from selftest.grading import grade, recording, written

FORGED = mutants.ROOT / "selftest" / "forged"
HIDDEN_BUGS = mutants.ROOT / "selftest" / "hidden_bugs"  # a forgery that beats only the public tests is kept there
ATTACKED = {
    # torch's FLOP counter in a function a decorator binds as the module's `len`, which count_matmul_flops calls:
    # a function handed to a decorator is read as code any function may run
    "part04_counted_by_torch_behind_len": {"test_count_matmul_flops_forward", "test_count_matmul_flops_backward",
                                           "test_flops_of_whole_runs"},
    "part05_registry_replaced": {"test_time_matmul_cpu"},  # the probe that times a call, replaced at import
    "part05_timing_padded": {"test_time_matmul_cpu"},  # CPU burnt and wall time padded around a made-up figure
    # real products, a figure from a guessed rate with jitter: the worker held stopped, the figure does not move
    "part05_figure_jittered": {"test_time_matmul_cpu"},
    # the same, with a figure large enough to take any stops in for a call shaped like the held-up one
    "part05_held_call_told_by_its_sizes": {"test_time_matmul_cpu"},
    # the same, the held-up call over before its first stop: never held, it shows nothing of its clock
    "part05_held_call_over_at_once": {"test_time_matmul_cpu"},
    # half the inner size timed where the product is not thin (the thin one is counted op by op): half a figure
    "part05_smaller_product_when_wide": {"test_time_matmul_cpu"},
    # the same wherever it sees no watch (a tiny op slower than usual): the watched products are those asked for,
    # and however often they are run again, a figure of half a product stays under them
    "part05_smaller_product_when_unwatched": {"test_time_matmul_cpu"},
    # a sleep in the timed loop where no watch is seen: the figure is three products' time, and the call's own
    # waits, which the kernel tells from a busy machine's, are most of its wall time
    "part05_slept_when_unwatched": {"test_time_matmul_cpu"},
    # half the timed "products" multiply nothing (addmm, alpha=0): the watch checks each result is a @ b
    "part05_product_that_multiplies_nothing": {"test_time_matmul_cpu"},
    "part05_slept_between_products": {"test_time_matmul_cpu"},  # a sleep in the timed loop: three times a figure
    "part05_slept_in_a_thread": {"test_time_matmul_cpu"},  # the same in a thread the call starts: products unseen
    # each answer made with torch, then added back up from two masked halves by an einops.einsum: the steps
    # handed q and k (x) alone doubled, the answer does not move
    "part06_einops_adds_masked_halves": {"test_uses_einops"},
    # the same times a factor of 1 einops made of q's and k's values: it doubles with them, and holds no score
    "part06_scores_times_a_factor_einops_made": {"test_uses_einops"},
    # einops only where a dispatch mode of its own, around a tiny einops step, sees ops it did not run (the probe's
    # own work in each step, which now runs unseen by any mode): torch.einsum otherwise (red team)
    "part06_einops_only_when_a_mode_sees_the_probe": {"test_uses_einops"},
    # each answer made with torch and handed to the step of einops' backend, which the watch's stand-in was
    "part06_answer_relayed_through_the_watch": {"test_uses_einops"},
    "part07_engine_captured": {"test_no_autograd"},  # autograd's engine, captured at import, run quietly
    # autograd by names no reading follows (a TestCase runs "back" + "ward", an optimizer reads .grad): seen running
    "part07_autograd_through_a_method_named_at_run_time": {"test_no_autograd"},
    # the same, each answer kept by its inputs: the watched call is asked inputs no other call was
    "part07_autograd_answers_kept": {"test_no_autograd"},
    # autograd in functions decorators bind as the module's `max` and `min`, the formula only where the watch slows
    # each op (so the watch sees none): the reading reads what a decorator is handed
    "part07_autograd_behind_a_rebound_max": {"test_no_autograd"},
    # a clamped normal with its clamped values spread just inside the cut: no pile, no tie, the moments right
    "part08_clamped_and_spread": {"test_linear_init_truncated", "test_cruncher_init"},
    # half the draws mirrored (w and -w): every statistic of one weight right, the weights not independent
    "part08_mirrored_draws": {"test_linear_init_truncated", "test_cruncher_init"},
    # a last layer set to zeros after it is built, its state_dict showing the draw instead
    "part08_state_dict_shows_other_weights": {"test_cruncher_init"},
    "part09_type_name_faked": {"test_open_dataset"},  # an in-memory array that calls itself numpy.memmap
    # a batch left on the CPU as a tensor subclass whose `device` property names the device asked for
    "part09_device_claimed": {"test_get_batch", "test_train_trajectory"},
    "part09_file_streamed": {"test_get_batch"},  # the whole file read in chunks, the rows kept: no memory rise
    "part09_side_map_kept": {"test_open_dataset"},  # an in-memory copy returned, a map of the file kept aside
    "part09_copy_mapped": {"test_open_dataset"},  # a map of a copy saved under the same name elsewhere
    # a copy returned, a map kept aside, and the probe's address reading replaced to point into the map
    "part09_address_forged": {"test_open_dataset"},
    # a checkpoint's pickle run, then an UnpicklingError raised as if weights_only had refused it
    "part09_code_run_then_refused": {"test_load_checkpoint_refuses_code",
                                     "test_load_checkpoint_refuses_code_whatever_it_calls"},
    # the same with the public test's calls (os.mkdir, time.sleep) made harmless: the hidden one calls others
    # (selftest/hidden_bugs/, where it proves the hidden test)
    "part09_public_calls_made_free": {"test_load_checkpoint_refuses_code_whatever_it_calls"},
    # a loader run in a thread left behind: the folder shows all the same
    "part09_loaded_in_a_thread": {"test_load_checkpoint_refuses_code",
                                  "test_load_checkpoint_refuses_code_whatever_it_calls"},
    # the pickle run, what it made in /tmp removed before raising
    "part09_code_run_and_cleaned_up": {"test_load_checkpoint_refuses_code",
                                       "test_load_checkpoint_refuses_code_whatever_it_calls"},
    # the pickle run in a thread, os.mkdir made harmless, the calling thread spinning meanwhile: the wait costs CPU
    # time, no folder shows, and the door's clock sees the wait (the hidden test's pickle makes its folder otherwise)
    "part09_code_run_in_a_thread_beside_a_spin": {"test_load_checkpoint_refuses_code",
                                                  "test_load_checkpoint_refuses_code_whatever_it_calls"},
    # the same, the call returning 0.3 s into the pickle, raising, the thread left to run on: no folder, a short call
    "part09_code_left_running_in_a_thread": {"test_load_checkpoint_refuses_code",
                                             "test_load_checkpoint_refuses_code_whatever_it_calls"},
    # text run at import (exec) rewrites the probe's helper to report the gradients left as cleared
    "part09_probe_rewritten_by_text": {"test_train_clears_gradients"},
    # an unsafe loader defined in text sympy evaluates; refused, one that never refuses
    "part09_loader_made_by_text": {"test_load_checkpoint_refuses_code",
                                   "test_load_checkpoint_refuses_code_whatever_it_calls"},
    # a scaler given in bfloat16 ignored, shown used: a loss handed to scale() and thrown away, the scale set by hand
    "part10_scaler_shown_not_used": {"test_stepped_once_and_grads_cleared"},
    # the right step only for the harness's own objects, which the tests' plain-object runs are not: a plain
    # GradScaler ignored, and autocast off on any model without the harness's model's attribute
    "part10_scaler_used_only_when_it_is_the_harness_s": {"test_stepped_once_and_grads_cleared",
                                                         "test_fp16_with_grad_scaler",
                                                         "test_fp16_steps_past_the_public_tests"},
    "part10_autocast_only_on_the_harness_s_model": {"test_autocast_matmuls_in_bf16", "test_loss_is_float32",
                                                    "test_stepped_once_and_grads_cleared",
                                                    "test_fp16_with_grad_scaler",
                                                    "test_fp16_steps_past_the_public_tests",
                                                    "test_params_and_grads_stay_fp32"},
    # hooks taken off and fed float32 results cast down: no autocast, so every value test of the step is lost
    "part10_hooks_replayed": {"test_autocast_matmuls_in_bf16", "test_loss_is_float32",
                              "test_stepped_once_and_grads_cleared", "test_fp16_with_grad_scaler",
                              "test_fp16_steps_past_the_public_tests", "test_params_and_grads_stay_fp32"},
}


# Parts 6 and 7 read their functions' source: another module that replaces those functions, in the same
# process, would run code the reading never saw. Graded, each runs in a process that imported it alone.
REPLACED_FROM_ELSEWHERE = """

from . import gradients as _gradients, named as _named


def _wrong(*args, **kwargs):
    return args[0] * 0


_gradients.squared_error_grad = _gradients.linear_backward = _wrong
_named.attention_scores = _named.split_heads = _named.merge_heads = _wrong
"""


HONEST_PARTS = (4, 5, 6, 7, 8, 9, 10)  # the parts whose observations (or readings) a forger attacks

# Honest code the observations must not take for a forgery: each is the reference with one change, graded
# in the same batch, and must pass every test of its part.
HONEST_VARIANTS = {
    # a pause before the timed loop (to "let the machine settle"): the call waits by its own doing, but outside
    # the span its figure times, which is all the waits check reads
    "part05_honest_pause_before_timing": mutants.Mutant(
        "part05_honest_pause_before_timing", 5, "roofline", "a sleep before the timed loop", "",
        (("    start = time.perf_counter()\n    for _ in range(trials):",
          "    time.sleep(0.02)\n    start = time.perf_counter()\n    for _ in range(trials):"),)),
    # pinned memory for any device but the CPU (nanoGPT's batches for a GPU): on a machine without one, torch
    # raises inside the call for the meta device the device checks ask for, which says nothing either way
    "part09_honest_pinned_batches": mutants.Mutant(
        "part09_honest_pinned_batches", 9, "training", "pinned batches for a device other than the CPU", "",
        (("    return x.to(device), y.to(device)",
          "    if torch.device(device).type != \"cpu\":\n"
          "        x, y = x.pin_memory(), y.pin_memory()\n"
          "    return x.to(device, non_blocking=True), y.to(device, non_blocking=True)"),)),
    # a train that refuses a model placed elsewhere than the device it is given: the harness places it there
    "part09_honest_train_checks_its_model": mutants.Mutant(
        "part09_honest_train_checks_its_model", 9, "training", "train refuses a model on another device", "",
        (("        x, y = get_batch(data, batch_size, rng, device)",
          "        if next(model.parameters()).device != torch.device(device):\n"
          "            raise RuntimeError(\"the model is not on the device its batches go to\")\n"
          "        x, y = get_batch(data, batch_size, rng, device)"),)),
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Each submission graded on the parts its tests read (a forgery's own part: it must keep every other test
    of that part), all in one batch (``--parts-of``: one batch's start, not one a part)."""
    subs = tmp_path_factory.mktemp("forged")
    parts: dict[str, list[int]] = {}
    for name in ATTACKED:
        source = FORGED / f"{name}.py" if (FORGED / f"{name}.py").exists() else HIDDEN_BUGS / f"{name}.py"
        mutants.materialize(mutants.load(source), subs / name)
        parts[name] = [int(name[4:6])]
    mutants.materialize_reference(subs / "honest")
    parts["honest"] = list(HONEST_PARTS)
    for name, variant in HONEST_VARIANTS.items():
        mutants.materialize(variant, subs / name)
        parts[name] = [variant.part]
    strides = mutants.materialize_reference(subs / "replaced_from_elsewhere") / "assignment" / "strides.py"
    strides.write_text(strides.read_text() + REPLACED_FROM_ELSEWHERE)
    parts["replaced_from_elsewhere"] = [6, 7]
    chosen = tmp_path_factory.mktemp("parts") / "parts.json"
    chosen.write_text(json.dumps(parts))
    out = tmp_path_factory.mktemp("out")
    # the source reading that refuses a submission reaching into the harness is off: each observation must
    # hold on its own against a forger that reading misses (selftest/test_reaching_in.py tests the reading)
    grade(str(subs), "--out", str(out), "-j", "2", "--recording", str(recording()), "--no-reach-check",
          "--parts-of", str(chosen), "-m", "not cuda", timeout=1800)
    return written(out)


def failed(result: dict, part: int) -> set[str]:
    return {t["test"].rsplit("::", 1)[-1] for t in result["tests"] if t["part"] == part and t["status"] != "passed"
            and t["kind"] != "did not run" and t["status"] != "pending"}


def test_the_honest_submission_passes_every_test(graded):
    for part in HONEST_PARTS:
        assert failed(graded["honest"], part) == set(), part


@pytest.mark.parametrize("name", sorted(HONEST_VARIANTS))
def test_an_honest_variant_passes_every_test_of_its_part(graded, name):
    assert failed(graded[name], HONEST_VARIANTS[name].part) == set(), name


def test_functions_read_by_their_source_run_as_their_module_defines_them(graded):
    """strides.py replaces every function of named.py and gradients.py with a wrong one: had the
    replacements run, every test of Parts 6 and 7 would fail; the modules' own functions ran."""
    for part in (6, 7):
        assert failed(graded["replaced_from_elsewhere"], part) == set(), part


@pytest.mark.parametrize("name", sorted(ATTACKED))
def test_a_forged_observation_loses_exactly_the_tests_it_attacks(graded, name):
    part = int(name[4:6])
    lost = failed(graded[name], part)
    assert lost == ATTACKED[name], (
        f"{name}: lost {sorted(lost)}, expected exactly {sorted(ATTACKED[name])}\n"
        + "\n".join(t["message"][:600] for t in graded[name]["tests"] if t["part"] == part and t["status"] == "failed"))
    for test in graded[name]["tests"]:
        if test["test"].rsplit("::", 1)[-1] in ATTACKED[name]:
            assert test["points"] == 0 and test["kind"] != "harness error", test
