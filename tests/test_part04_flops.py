"""Part 4 — FLOP accounting (assignment/flops.py).

FLOP counts are exact integers, compared exactly. The 6PD and time estimates
are floats compared to 1e-12 relative: any correct order of the same few
multiplications lands within a few units in the last place.

``count_matmul_flops`` is given a function that the probe ``count_scenario``
builds from a plain description (ops, shapes, which operands require grad), so
the count can only be right if the student's dispatch mode sees what ran. The
dispatch mode must be the student's own: torch's ``FlopCounterMode`` is what the
docstring offers to check a count against, and flops.py's source (read, never run)
must not count with it.
"""

import ast
import functools

from grader.harness import spec
from grader.harness.ask import ask, refuse_unless
from grader.harness.cases import example, given
from grader.harness.faults import StudentRaised
from grader.harness.probes.part04 import count_scenario
from grader.harness.schema import INT
from grader.harness.source import (
    defined_in, handed_on_at, import_time_names, package_names, reached_as, replaced_at_import, unwritten_lookups,
    walk,
)
from tests.strategies import part04 as S

ESTIMATE = 1e-12
matmul_flops = spec.function("flops.matmul_flops")
linear_flops = spec.function("flops.linear_flops")
training_flops = spec.function("flops.training_flops")
training_seconds = spec.function("flops.training_seconds")
cruncher_flops = spec.function("flops.cruncher_flops")


@given(sizes=S.matmul_sizes())
@example(sizes=(100, 256, 512))
def test_matmul_flops(impl, oracle, sizes):
    ask(impl, oracle, matmul_flops, *sizes).same()


@given(sizes=S.matmul_sizes())
@example(sizes=(100, 256, 512))
def test_linear_flops(impl, oracle, sizes):
    ask(impl, oracle, linear_flops, *sizes).same()


@given(budget=S.training_budgets())
@example(budget=(70e9, 15e12))
@example(budget=(70 * 10**9, 15 * 10**12))
def test_training_flops(impl, oracle, budget):
    ask(impl, oracle, training_flops, *budget).within(rel=ESTIMATE)


@given(case=S.training_time_cases())
@example(case=(6.3e24, 1024, 989.5e12, 0.5))
def test_training_seconds(impl, oracle, case):
    ask(impl, oracle, training_seconds, *case).within(rel=ESTIMATE)


@given(case=S.cruncher_cases())
@example(case=(100, 256, 1))
@example(case=(100, 256, 1, True))
@example(case=(8, 4, 0))
def test_cruncher_flops(impl, oracle, case):
    ask(impl, oracle, cruncher_flops, *case).same()


@given(scenario=S.forward_scenarios())
@example(scenario=([("mm", (3, 4, 5), (False, False))], False, 0))
@example(scenario=([("mm", (0, 4, 5), (False, False))], False, 0))  # an empty batch: 0 FLOPs, not an error
@example(scenario=([("conv1d", (2, 3, 4, 3, 6), (False, False)), ("mm", (3, 4, 5), (False, False))], False, 0))
# baddbmm's added term broadcast over the batch: the product's shapes are its second and third operands
@example(scenario=([("baddbmm_broadcast", (2, 3, 4, 5), (False, False, False))], False, 0))
# and addmm's, a column broadcast along n: n is b's, not the added term's
@example(scenario=([("addmm_column", (3, 4, 5), (False, False, False))], False, 0))
# matrix-vector and vector-vector products are none of the four ops; each of the four into out= is still itself
@example(scenario=([("mv", (3, 4), (False, False)), ("dot", (4,), (False, False)),
                    ("addmv", (3, 4), (False, False, False)), ("addbmm", (2, 3, 4, 5), (False, False, False)),
                    ("mm_out", (3, 4, 5), (False, False))], False, 0))
@example(scenario=([("addmm_out", (3, 4, 5), (False, False, False)), ("bmm_out", (2, 3, 4, 5), (False, False)),
                    ("baddbmm_out", (2, 3, 4, 5), (False, False, False))], False, 0))
def test_count_matmul_flops_forward(impl, oracle, scenario):
    same_count(impl, oracle, *scenario)
    counts_with_its_own_mode(impl)


def same_count(impl, oracle, ops: list, backward: bool, seed: int) -> None:
    """count_matmul_flops of the scenario, exactly the reference's. A wrong count of several ops says what yours
    counts for each op alone, so that the op it gets wrong shows (an overload missed: ``mm_out``, torch.mm into
    ``out=``)."""
    answers = ask(impl, oracle, count_scenario, ops, backward, seed, returns=INT)
    if type(answers.got) is int and answers.got != answers.expected:  # (else its type is told)
        kept = _kept_between_calls(impl)  # no breakdown of ops can say why a count is off by an earlier call's
        if kept:
            answers.same(f"wrong count; asked twice for the same fn (one mm of {2 * 2 * 3 * 4} FLOPs), it returned "
                         f"{kept[0]!r} and then {kept[1]!r}: count_matmul_flops keeps a count between calls (make "
                         "the counter anew in each call, not once for all of them)")
    if len(ops) > 1 and type(answers.got) is int and answers.got != answers.expected:
        alone = []
        for op in ops:
            # backward through the op alone only where it has a graph: an out= op's result has none (in the whole
            # scenario, backward runs through the others' outputs)
            through = backward and any(op[2]) and not op[0].endswith("_out")
            label = f"{op[0]}{' (forward)' if backward and not through else ''}"
            try:
                alone.append(f"{label} {ask(impl, None, count_scenario, [op], through, seed, returns=INT).got!r}")
            except StudentRaised as raised:
                alone.append(f"{label} raised {raised.exc_type}")
        answers.same(f"wrong count; yours for each op alone: {', '.join(alone)} (each call of mm, addmm, bmm or "
                     "baddbmm counts, whichever overload runs it, out= included; any other op counts 0)")
    answers.same()


def _kept_between_calls(impl) -> tuple[int, int] | None:
    """Two counts of one same small product, where they differ: a counter kept from one call to the next."""
    try:
        first, second = (ask(impl, None, count_scenario, [("mm", (2, 3, 4), (False, False))], False, 0,
                             returns=INT).got for _ in range(2))
    except StudentRaised:
        return None
    return (first, second) if first != second else None


def counts_with_its_own_mode(impl) -> None:
    """Nothing of torch's own FLOP counters (``torch.utils.flop_counter``, the profiler's ``with_flops``)
    in what count_matmul_flops runs (flops.py and any module of yours it takes a helper from): the
    counting is the exercise."""
    sources = tuple(sorted(impl.sources().items()))  # the key each reading is cached under
    used, unreadable = _flop_counter_reads(sources)
    subject = "flops.count_matmul_flops"
    refuse_unless(not unreadable, subject,
                  f"{unreadable[0] if unreadable else ''}.py cannot be read to see what count_matmul_flops runs: "
                  "keep it plain Python (each function bound once, by its def; no expression or block nested "
                  "hundreds of levels deep)")
    replaced = _replaced(sources)
    refuse_unless(not replaced, subject,
                  f"{replaced[0].where if replaced else ''} {replaced[0].what if replaced else ''}: code that runs "
                  "when flops.py is imported may put other functions in place of yours; what count_matmul_flops "
                  "runs is read from flops.py's source, so its functions must run as written there")
    hidden = _unwritten(sources)
    refuse_unless(not hidden, subject,
                  f"{hidden[0].where if hidden else ''} {hidden[0].what if hidden else ''}: what count_matmul_flops "
                  "runs (or importing flops.py runs) looks a name up at run time, which a reading of the source "
                  "cannot follow (getattr of a name built at run time, importlib, __import__, sys.modules, eval or "
                  "exec); the test reads the source to see that you count the FLOPs yourself, so write each name "
                  "out (getattr(torch.ops.aten, name) is fine)")
    # a function handed to a decorator (which may keep it where any call reaches it) is read as code it may run
    handed = ", in a decorated function, read as code count_matmul_flops may run, called or not, since its " \
        "decorator may keep it anywhere (a self-check against torch's counter belongs under if __name__ == " \
        "\"__main__\": or in a file nothing imports)" if used and handed_on_at(dict(sources), used[0]) else ""
    refuse_unless(not used, subject,
                  f"counts with torch's own FLOP counter ({used[0] if used else ''}{handed}: torch.utils.flop_counter, "
                  "the profiler, or one of torch's per-op formulas such as mm_flop, read off something the reading "
                  "cannot name): write the TorchDispatchMode and the FLOPs of each op yourself, as the docstring "
                  "asks; FlopCounterMode is only to check your count against (a name of your own that is one of "
                  "torch's: rename it)")


@functools.lru_cache(maxsize=4)  # read once per submission, not once per example
def _flop_counter_reads(sources: tuple[tuple[str, str], ...]) -> tuple[list[str], list[str]]:
    """Where count_matmul_flops, or code that runs when the modules are imported (an Enum's hooks put a
    counter in a table it reads), reads one of torch's FLOP counters, and the modules on the way that
    cannot be read."""
    unreadable: list[str] = []
    own = _own_names(sources)

    def counter(name: str) -> bool:  # a formula's name the submission defines itself is its own, read off ``?``
        return _is_flop_counter(name) and not (name.startswith("?.") and name.rsplit(".", 1)[-1] in own)

    used = package_names(dict(sources), "flops", "count_matmul_flops", counter, unreadable)
    return sorted(set(used + import_time_names(dict(sources), counter, "flops"))), unreadable


def _own_names(sources: tuple[tuple[str, str], ...]) -> frozenset[str]:
    """The attribute names the submission's modules give things themselves: functions and methods it defines,
    names assigned in its class bodies or onto objects, keyword names of its calls (a namespace's fields)."""
    names: set[str] = set()
    for _, text in sources:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.add(node.name)
            elif isinstance(node, ast.ClassDef):
                names.update(t.id for s in node.body if isinstance(s, (ast.Assign, ast.AnnAssign))
                             for t in (s.targets if isinstance(s, ast.Assign) else [s.target])
                             if isinstance(t, ast.Name))
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.keyword) and node.arg:
                names.add(node.arg)
    return frozenset(names)


# torch counts FLOPs in two places: FlopCounterMode, and the profiler's with_flops estimates (the
# autograd profiler is the older face of the same thing, torch._C's the engine under both); and its
# per-op formulas live in a registry other modules hand on (the runtime estimator, varlen attention)
_FLOP_COUNTERS = ("torch.utils.flop_counter", "torch.profiler", "torch.autograd.profiler",
                  "torch.autograd.profiler_legacy", "torch._C._profiler", "torch._C._autograd",
                  "torch.utils._runtime_estimation",
                  # the compiler's analyses price ops from the same registry (profile_analysis, fx_utils, partitioners)
                  "torch._inductor", "torch._functorch.partitioners")
_FLOP_WORDS = frozenset(["flop_counter", "flop_registry", "FlopCounterMode", "register_flop_formula"])


@functools.lru_cache(maxsize=4)
def _replaced(sources: tuple[tuple[str, str], ...]) -> list:
    return replaced_at_import(dict(sources), "flops")


@functools.lru_cache(maxsize=4)
def _unwritten(sources: tuple[tuple[str, str], ...]) -> list:
    return unwritten_lookups(dict(sources), "flops", "count_matmul_flops")


def _is_flop_counter(name: str) -> bool:
    """A name of torch's FLOP counting, however reached: a module's attribute may be another module
    (``torch.nn.functional.torch.utils.flop_counter`` is ``torch.utils.flop_counter``)."""
    parts = name.split(".")
    # torch's, or an attribute of what a reading cannot name (``getattr(self, "t").utils.flop_counter``);
    # not a name of your own (a class of yours may be called FlopCounterMode)
    if parts[0] == "torch" and _FLOP_WORDS.intersection(parts):
        return True
    # of what no reading can name, torch's counter's names, its per-op formulas (``mm_flop``), or its module
    # with something read off it; not an attribute of that name alone (``counter.flop_counter``, a tally)
    if parts[0] == "?" and (_FLOP_WORDS.difference(["flop_counter"]).intersection(parts)
                            or "flop_counter" in parts[1:-1] or parts[-1] in _torch_formulas()):
        return True
    # torch's counter re-exported under another module's name (``torch._functorch.benchmark_utils.profile``
    # is the profiler's class): where torch says it is defined
    return reached_as(name, _FLOP_COUNTERS) or reached_as(_defined_in(name) or "", _FLOP_COUNTERS)


@functools.cache
def _torch_formulas() -> frozenset[str]:
    """torch's per-op FLOP formulas by name (``mm_flop``, ``sdpa_flop``): another name ending in ``_flop``
    (a tally, ``counter.total_flop``) is no formula of torch's."""
    from torch.utils import flop_counter

    return frozenset(name for name in dir(flop_counter) if name.endswith("_flop"))


@functools.lru_cache(maxsize=256)
def _defined_in(name: str) -> str | None:
    return defined_in(name) if name.startswith("torch.") else None


@given(scenario=S.backward_scenarios())
@example(scenario=([("mm", (3, 4, 5), (True, False))], True, 0))  # the docstring's: 120 forward + 120 for dx
@example(scenario=([("conv1d", (2, 3, 4, 3, 6), (True, True)), ("linear", (5, 7, 6), (True, False, False))],
                   True, 0))  # a convolution is not one of the four ops: 0 of it, forward or backward
def test_count_matmul_flops_backward(impl, oracle, scenario):
    same_count(impl, oracle, *scenario)
    counts_with_its_own_mode(impl)
