"""Part 6 — einops and jaxtyping (assignment/named.py).

Every call is checked against your jaxtyping annotations, as the course checks
them (``jaxtyped(typechecker=typeguard.typechecked)``): the annotations are read
from your source and the check runs here, on your arguments and your result, so
a result whose shape contradicts them fails as surely as a wrong value. Whether
you use einops is read from your source too.

Results keep the inputs' dtype (one example of each of attention_scores and split_heads is
float64; the rest are float32). split_heads and merge_heads only move numbers around: compared
exactly. attention_scores sums ``dim`` products, and sums may round differently in a
different order: each score is compared within 4·(dim+2)·eps·S + tiny, where
S = sum |q|·|k| / sqrt(dim) is the largest the rounding error could scale with and eps
is the inputs' dtype's (float32's 1.19e-07). Any correct formula is within a few roundings per
term; a wrong scale (1/dim, none) or a wrong pair of axes is off by far more.
"""

import math

import torch
from hypothesis import settings
from hypothesis import strategies as st

from grader.harness import spec
from grader.harness.ask import Answers, ask, fail, refuse, refuse_unless, require, right_answers_first
from grader.harness.cases import example, given
from grader.harness.compare import beyond
from grader.harness.faults import named_inputs
from grader.harness.probes.part06 import CALLS, einops_doubled
from grader.harness.schema import Tensor
from grader.harness.source import Annotation, Module, package_names, replaced_at_import
from grader.harness.typecheck import check_call
from tests.strategies import part06 as S

F32 = torch.finfo(torch.float32)
ATTENTION_TOLERANCE = "compared elementwise within 4·(dim+2)·eps·sum(|q|·|k|)/sqrt(dim), eps of {dtype}"
attention_scores = spec.function("named.attention_scores")
split_heads = spec.function("named.split_heads")
merge_heads = spec.function("named.merge_heads")


# --------------------------------------------------------------------------- reading the source
def source_of(impl) -> Module:
    """Your named.py, parsed (never run) here; what runs must be what it defines."""
    text = impl.source("named")
    if text is None:
        refuse("named", "assignment/named.py is missing")
    try:
        module = Module.parse(text, "named")
    except SyntaxError as error:
        refuse("named", f"assignment/named.py does not parse: {error}")
    replaced = replaced_at_import(impl.sources(), "named")
    if replaced:
        refuse("named", f"{replaced[0].where} {replaced[0].what}: code that runs when named.py is imported may put "
               "other functions in place of yours or a library's; the checks read named.py's source, so its "
               "functions must run as written there")
    return module


def annotations(impl, function):
    """Your annotations of ``function``, read from named.py (and the modules of yours it takes the function or
    aliases from)."""
    found = source_of(impl).annotations(function.name.split(".")[1], impl.sources())
    if found is None:
        refuse(function.name, f"named.py defines no function {function.name.split('.')[1]}, nor imports one from a "
               "module of yours that defines it (`from ._impl import ...`, bound once, at import time), so its "
               "annotations cannot be read")
    return found


def checked(impl, oracle, function, *args, returns) -> Answers:
    """Both answers; yours must pass the jaxtyping check of your annotations, then fit ``returns``."""
    answers = ask(impl, oracle, function, *args, returns=returns)
    complaint = check_call(annotations(impl, function), function.params, args, answers.got)
    if complaint:
        answers.fail(f"failed its jaxtyping check: {complaint}")
    answers.check()
    return answers


# --------------------------------------------------------------------------- values
def _one_factor(got: torch.Tensor, expected: torch.Tensor, allowed: torch.Tensor) -> bool:
    """Whether ``got`` is ``expected`` times one factor, each score then within ``allowed`` (the dtype's own
    roundings): a wrong scale's mark, where values computed in fewer bits are off each by its own amount."""
    if got.shape != expected.shape or got.dtype != expected.dtype or not expected.any():
        return False
    largest = expected.abs().argmax()
    factor = got.flatten()[largest].double() / expected.flatten()[largest].double()
    return factor != 0 and bool(((got.double() / factor - expected.double()).abs() <= allowed).all())


def check_attention_scores(impl, oracle, q, k):
    """Scores of the inputs' dtype, each within a few roundings per term of that dtype."""
    batch, seq_q, heads, dim = q.shape
    info = torch.finfo(q.dtype)
    answers = checked(impl, oracle, attention_scores, q, k,
                      returns=Tensor(q.dtype, (batch, heads, seq_q, k.shape[1])))
    scale = torch.einsum("bihd,bjhd->bhij", q.double().abs(), k.double().abs()) / math.sqrt(dim)
    # float64 inputs with an answer only float32-close: the one slip that hint explains
    float32_close = q.dtype == torch.float64 and isinstance(answers.got, torch.Tensor) and not beyond(
        answers.got, answers.expected, 4 * (dim + 2) * (F32.eps * scale + info.tiny))
    problem = "wrong value" if not float32_close else \
        "wrong value for float64 inputs, right to float32's 7 digits only (compute in their precision: " + (
            "every score is off by the same factor, a scale: one made as a float32 tensor, "
            "torch.sqrt(torch.tensor(dim)), rounds to float32's 7 digits; math.sqrt(dim) does not)"
            if _one_factor(answers.got, answers.expected, 4 * (dim + 2) * (info.eps * scale + info.tiny)) else
            "the scores are off each by its own amount, as products computed in float32 are: q or k cast to "
            "float32 (.float(), .to(torch.float32)) before the product, or a float32 tensor in it, rounds them)")
    answers.elementwise(4 * (dim + 2) * (info.eps * scale + info.tiny),
                        ATTENTION_TOLERANCE.format(dtype=str(q.dtype).removeprefix("torch.")), problem)
    return answers.got


def check_split_heads(impl, oracle, x, num_heads):
    batch, seq, model = x.shape
    answers = checked(impl, oracle, split_heads, x, num_heads,
                      returns=Tensor(x.dtype, (batch, num_heads, seq, model // num_heads)))
    answers.same()
    return answers.got


def check_merge_heads(impl, oracle, x):
    batch, heads, seq, head_dim = x.shape
    answers = checked(impl, oracle, merge_heads, x, returns=Tensor(x.dtype, (batch, seq, heads * head_dim)))
    answers.same()
    return answers.got


@given(case=S.attention_cases())
@example(case=(torch.ones(2, 3, 8, 64), torch.ones(2, 3, 8, 64)))
# float64 in, float64 out (the module's docstring), in float64's precision: sqrt(3) is no float32
@example(case=(torch.linspace(-1, 1, 36, dtype=torch.float64).reshape(2, 3, 2, 3),
               torch.linspace(2, -2, 60, dtype=torch.float64).reshape(2, 5, 2, 3)))
def test_attention_scores(impl, oracle, case):
    check_attention_scores(impl, oracle, *case)


@given(case=S.split_cases())
@example(case=(torch.arange(12.0).reshape(1, 2, 6), 2))
@example(case=(torch.arange(12.0, dtype=torch.float64).reshape(1, 2, 6), 3))  # float64 in, float64 out
def test_split_heads(impl, oracle, case):
    check_split_heads(impl, oracle, *case)


@given(x=S.merge_cases())
@example(x=torch.arange(12.0).reshape(1, 2, 2, 3).transpose(1, 2).contiguous())  # split_heads's example
def test_merge_heads(impl, oracle, x):
    check_merge_heads(impl, oracle, x)


# --------------------------------------------------------------------------- annotations
def bad_calls(batch, seq_q, seq_k, heads, dim):
    """Calls with wrong shapes, each with what is wrong in words: the annotations must stop them."""
    q = torch.ones(batch, seq_q, heads, dim)
    k = torch.ones(batch, seq_k, heads, dim)
    x = torch.ones(batch, seq_q, heads * dim)
    split = torch.ones(batch, heads, seq_q, dim)
    return [
        (attention_scores, (q[0], k), f"a 3-D q of shape {(seq_q, heads, dim)}"),
        (attention_scores, (q[0], k[0]), f"3-D q and k of shapes {(seq_q, heads, dim)} and {(seq_k, heads, dim)}"),
        (attention_scores, (q, torch.ones(batch + 1, seq_k, heads, dim)),
         f"q and k with different batch sizes ({batch} and {batch + 1})"),
        (attention_scores, (q, torch.ones(batch, seq_k, heads + 1, dim)),
         f"q and k with different numbers of heads ({heads} and {heads + 1})"),
        (attention_scores, (q, torch.ones(batch, seq_k, heads, dim + 1)),
         f"q and k with different head dims ({dim} and {dim + 1})"),
        (split_heads, (x[0], heads), f"a 2-D x of shape {(seq_q, heads * dim)}"),
        (merge_heads, (split[0],), f"a 3-D x of shape {(heads, seq_q, dim)}"),
        # Float, not Shaped: a checked call takes floating tensors only (q and k each beside a float other:
        # sent together, the one annotated Float would stop the call whatever the other's annotation)
        (attention_scores, (q.long(), k), "an integer (int64) q"),
        (attention_scores, (q, k.long()), "an integer (int64) k"),
        (split_heads, (x.long(), heads), "an integer (int64) x"),
        (merge_heads, (split.long(),), "an integer (int64) x"),
        # Float, not Inexact: a complex tensor is no float
        (attention_scores, (q.to(torch.complex64), k), "a complex (complex64) q"),
        (attention_scores, (q, k.to(torch.complex64)), "a complex (complex64) k"),
    ]


@given(case=S.annotation_cases())
@settings(max_examples=10)  # each rejection costs the checker ~10 ms of message formatting
def test_annotations_reject_wrong_shapes(impl, oracle, case):
    """Right answers to well-shaped calls, and annotations that stop wrongly shaped ones."""
    batch, seq_q, seq_k, heads, dim = case
    generator = torch.Generator().manual_seed(sum(case))  # the same tensors wherever the case is replayed
    q = torch.randn(batch, seq_q, heads, dim, generator=generator)
    k = torch.randn(batch, seq_k, heads, dim, generator=generator)
    with right_answers_first("test_annotations_reject_wrong_shapes first asks for right answers to well-shaped "
                             "calls: the function's own test fails the same way"):
        check_attention_scores(impl, oracle, q, k)
        check_split_heads(impl, oracle, torch.randn(batch, seq_q, heads * dim, generator=generator), heads)
        check_merge_heads(impl, oracle, torch.randn(batch, heads, seq_q, dim, generator=generator))
    for function, args, what in bad_calls(*case):
        if check_call(annotations(impl, function), function.params, args) is None:
            fail(function.name, unread(impl, function) or f"your annotations accepted {what}: keep the jaxtyping annotations")
    for function in (attention_scores, split_heads, merge_heads):  # a result's annotation is checked too
        missing = unread(impl, function)
        if missing:
            fail(function.name, missing)
    for function, args, result, what in bad_results(*case):
        if check_call(annotations(impl, function), function.params, args, result=result) is None:
            fail(function.name, f"your annotations accepted {what} from a well-shaped call: annotate the result "
                 "with its axes, named as the arguments' axes it shares, as the stub does")


def bad_results(batch, seq_q, seq_k, heads, dim):
    """Well-shaped calls with results no annotation of the result's axes lets through (a 1-D result, an
    integer one), however its axes are named: an annotation that accepts any shape (\"...\") checks nothing.
    And results one longer on an axis the stub's annotations tie to an argument's (a result's seq is x's
    seq): a result annotated with an axis of its own name there (\"seq2\") checks nothing of it; or of
    length 1 there, where the argument's is longer: an axis marked as broadcasting (\"#seq\") takes it."""
    q, k = torch.ones(batch, seq_q, heads, dim), torch.ones(batch, seq_k, heads, dim)
    x, split = torch.ones(batch, seq_q, heads * dim), torch.ones(batch, heads, seq_q, dim)
    flat = torch.ones(batch * heads * seq_q)
    return [
        (attention_scores, (q, k), flat, f"a 1-D result of {flat.numel()} values"),
        (attention_scores, (q, k), torch.ones(batch, heads, seq_q, seq_k, dtype=torch.long), "an integer result"),
        (attention_scores, (q, k), torch.ones(batch, heads, seq_q, seq_k + 1),
         f"a result of {seq_k + 1} keys for k's {seq_k} (seq_k)"),
        (attention_scores, (q, k), torch.ones(batch, heads + 1, seq_q, seq_k),
         f"a result of {heads + 1} heads for q's {heads}"),
        (attention_scores, (q, k), torch.ones(batch, heads, seq_q + 1, seq_k),
         f"a result of {seq_q + 1} queries for q's {seq_q} (seq_q)"),
        (attention_scores, (q, k), torch.ones(batch + 1, heads, seq_q, seq_k),
         f"a result of batch size {batch + 1} for q's {batch}"),
        (split_heads, (x, heads), flat, f"a 1-D result of {flat.numel()} values"),
        (split_heads, (x, heads), torch.ones(batch, heads, seq_q + 1, dim),
         f"a result of sequence length {seq_q + 1} for x's {seq_q} (seq)"),
        (split_heads, (x, heads), torch.ones(batch + 1, heads, seq_q, dim),
         f"a result of batch size {batch + 1} for x's {batch}"),
        (merge_heads, (split,), flat, f"a 1-D result of {flat.numel()} values"),
        (merge_heads, (split,), torch.ones(batch, seq_q + 1, heads * dim),
         f"a result of sequence length {seq_q + 1} for x's {seq_q} (seq)"),
        (merge_heads, (split,), torch.ones(batch + 1, seq_q, heads * dim),
         f"a result of batch size {batch + 1} for x's {batch}"),
    ] + [
        # ... and one of size 1 where the argument's axis is longer: an axis marked as broadcasting ("#seq")
        # takes a 1 for any size
        (function, args, torch.ones(*sizes[:axis], 1, *sizes[axis + 1:]), f"a result of 1 {what} for {whose}")
        for function, args, sizes, tied in (
            (attention_scores, (q, k), (batch, heads, seq_q, seq_k),
             {0: ("batch", f"q's {batch}"), 1: ("head", f"q's {heads}"), 2: ("query", f"q's {seq_q} (seq_q)"),
              3: ("key", f"k's {seq_k} (seq_k)")}),
            (split_heads, (x, heads), (batch, heads, seq_q, dim),
             {0: ("batch", f"x's {batch}"), 2: ("position", f"x's {seq_q} (seq)")}),
            (merge_heads, (split,), (batch, seq_q, heads * dim),
             {0: ("batch", f"x's {batch}"), 1: ("position", f"x's {seq_q} (seq)")}))
        for axis, (what, whose) in tied.items() if sizes[axis] >= 2
    ]


TENSORS = {"attention_scores": ("q", "k", "return"), "split_heads": ("x", "return"), "merge_heads": ("x", "return")}


def unread(impl, function) -> str:
    """Why nothing checks a tensor of ``function``, where it has no annotation read as jaxtyping's ("": all
    of them are): the check cannot stop what it does not have."""
    found = annotations(impl, function)
    name = function.name.split(".")[1]
    missing = [p for p in TENSORS[name] if not isinstance(found.get(p), Annotation)]
    if not missing:
        return ""
    unreadable, absent = [], []
    for p in missing:
        what = "the result" if p == "return" else p
        text = getattr(found.get(p), "text", "")
        if text:
            unreadable.append(f"{what} ({text})")
        else:
            absent.append(what)
    said = []
    if unreadable:
        said.append(f"the annotation{'s' * (len(unreadable) > 1)} of {_listed(unreadable)} could not be read as "
                    + ("jaxtyping annotations" if len(unreadable) > 1 else "a jaxtyping annotation"))
    if absent:
        said.append(f"{_listed(absent)} {'have' if len(absent) > 1 else 'has'} no annotation")
    return ("; ".join(said) + ", so nothing checks the shapes: write them as the stub does, "
            "Float[torch.Tensor, \"<axis names>\"] with Float from jaxtyping, in named.py "
            "(or as aliases bound once in a module of yours that named.py imports them from)")


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# --------------------------------------------------------------------------- einops
EXPECTED_OPS = ((attention_scores, "einsum"), (split_heads, "rearrange"), (merge_heads, "rearrange"))


def einops_call(op: str):
    """Whether a name read in the source is einops' ``op``: ``einops.op``, or where einops defines it
    (``from einops import einops as E``, ``E.rearrange``)."""
    return lambda used: used in (f"einops.{op}", f"einops.einops.{op}")


def einops_growth(plain, doubled) -> float | None:
    """The factor an answer grew by when every result of einops was doubled: a power of two where each
    value grew by the same one (zeros stay zeros), 1.0 where nothing moved, None where it moved some
    other way (or either call did not return a float tensor of the same shape)."""
    if not (type(plain) is torch.Tensor and type(doubled) is torch.Tensor and plain.is_floating_point()
            and plain.shape == doubled.shape and plain.dtype == doubled.dtype):
        return None
    if torch.equal(plain, doubled):
        return 1.0
    nonzero = plain != 0
    if not bool(nonzero.any()):
        return None
    growth = float((doubled[nonzero] / plain[nonzero]).flatten()[0])
    mantissa, exponent = math.frexp(growth)
    # doubling is exact, so an answer einops made is doubled exactly, once per einops step it went through
    if mantissa != 0.5 or exponent < 2 or not torch.equal(doubled, plain * growth):
        return None
    return growth


# an einops result that is the answer, cast to a 16-bit dtype after: within two roundings of bfloat16
MADE_OF_RTOL = 2.0 ** -7


def made_of(result, answer) -> bool:
    """Whether an einops result holds the answer's values, up to one constant factor (the 1/sqrt(dim)
    applied after einsum) and their order (a permute after rearrange): their magnitudes, sorted, in
    proportion. A result einops made of something else (ones, a scalar it multiplies in) is not."""
    if not (type(result) is torch.Tensor and type(answer) is torch.Tensor and result.numel() == answer.numel()
            and result.is_floating_point() and answer.is_floating_point()):
        return False
    r = result.detach().to(torch.float64).abs().flatten().sort().values
    a = answer.detach().to(torch.float64).abs().flatten().sort().values
    if not (bool(torch.isfinite(r).all()) and bool(torch.isfinite(a).all())):
        return False
    if not bool((a != 0).any()):
        return not bool((r != 0).any())
    scale = float((r * a).sum() / (r * r).sum()) if bool((r != 0).any()) else 0.0
    return scale > 0 and bool(torch.allclose(r * scale, a, rtol=MADE_OF_RTOL, atol=MADE_OF_RTOL * float(a.max())
                                             * 2.0 ** -10))


def made_of_results(results, answer) -> bool:
    """Whether the answer's values are those of one einops result, or of the last few taken together (a
    loop over heads, stacked after), as ``made_of`` says."""
    if type(answer) is not torch.Tensor or type(results) is not tuple:
        return False
    for end in range(len(results), 0, -1):
        window, size = [], 0
        for result in reversed(results[:end]):
            if type(result) is not torch.Tensor:
                break
            window.insert(0, result.detach().flatten())
            size += result.numel()
            if size >= answer.numel():
                break
        if size == answer.numel() and window and made_of(torch.cat(window), answer):
            return True
    return False


def given_the_answer_in_any_order(inputs, answer) -> bool:
    """Whether an einops step was handed the answer's values in any order and layout (up to a constant factor),
    or copies of them: scores made another way, laid out otherwise (their last two axes swapped), which an einsum
    only moves back, as a contraction never is. Read only where the answer's values are mostly distinct (a
    contraction of constant inputs has one value, as each of its inputs does)."""
    if type(answer) is not torch.Tensor or type(inputs) is not tuple or answer.numel() == 0:
        return False
    a = answer.detach().to(torch.float64).reshape(-1).sort().values
    if not (bool(torch.isfinite(a).all()) and 2 * a.unique().numel() > a.numel()):
        return False
    for handed in inputs:
        if type(handed) is not torch.Tensor or handed.numel() == 0 or handed.numel() % a.numel():
            continue
        flat = handed.detach().to(torch.float64).reshape(-1).sort().values
        copies = a.repeat_interleave(flat.numel() // a.numel())
        for expected in (copies, copies.flip(0)):  # (a negative factor reverses the order)
            scale = float(flat @ expected) / float(expected @ expected)
            if scale != 0 and bool(torch.allclose(flat, scale * expected, rtol=MADE_OF_RTOL, atol=0.0)):
                return True
    return False


def given_the_answer(inputs, answer) -> bool:
    """Whether an einops step was handed the answer already made: an input whose values are the answer's in
    their order (up to a constant factor), or copies of it stacked along the first or the last axis (the
    probe reports no input an earlier einops step made). An einops step that passes an answer made another
    way through (flattens it and reshapes it back, moves an axis and moves it back) doubles with the doubled
    call all the same; the answer was not made by einops. Read only where no axis is 1 (else an honest
    step, merging one head, is handed its answer's values in their order)."""
    if type(answer) is not torch.Tensor or type(inputs) is not tuple or answer.numel() == 0:
        return False
    a = answer.detach().to(torch.float64).reshape(-1)
    if not (bool(torch.isfinite(a).all()) and bool((a != 0).any())):
        return False
    n = a.numel()
    for handed in inputs:
        if type(handed) is not torch.Tensor or handed.numel() == 0 or handed.numel() % n:
            continue
        flat = handed.detach().to(torch.float64).reshape(-1)
        k = flat.numel() // n
        for row in (*flat.reshape(k, n), *flat.reshape(n, k).T):
            scale = float(row @ a) / float(a @ a)
            if scale != 0 and bool(torch.allclose(row, scale * a, rtol=MADE_OF_RTOL, atol=0.0)):
                return True
    return False


def _no_axis_of_one() -> tuple:
    """An einops case with every axis 2 or more (where an einops step that hands its input back as it was can
    only be an identity pattern: ``einops_doubled``)."""
    generator = torch.Generator().manual_seed(6)
    return (torch.randn(2, 3, 2, 4, generator=generator), torch.randn(2, 4, 2, 4, generator=generator),
            torch.randn(2, 3, 6, generator=generator), 2, torch.randn(2, 3, 4, 2, generator=generator))


@given(case=S.einops_cases(), order=st.permutations(CALLS).map(tuple))
@example(case=_no_axis_of_one(), order=CALLS)
@settings(max_examples=10)  # whether einops is used does not depend on the values
def test_uses_einops(impl, oracle, case, order):
    """Right answers, computed with einops.einsum and einops.rearrange as the docstrings ask: each
    function's source names its einops call, and called once more with every result einops hands back
    doubled, its answer doubles (or grows by another power of two, one doubling per einops step it went
    through; a step that hands its input back as it was, an identity pattern, makes nothing and is not
    doubled): the call runs, and its result is what the answer is made of; and the answer's values are
    those of one of einops' results (up to a constant factor and their order: ``made_of``), not an answer
    made otherwise times an einops result of something else; the scores a contraction einops.einsum was
    given two tensors for; and, where no axis is 1, no einops step handed the answer already made
    elsewhere (``given_the_answer``: passed through einops, flattened and reshaped back); and called with only
    the einops steps handed the function's own inputs doubled (q and k, x: their values, scaled, cast, sliced
    or moved), its answer doubles too, and is what those steps returned: an answer made another way and handed
    to einops in pieces to add back up does not move, and one times a factor einops made of q is none of them.
    (The same inputs again, einops as it is, must give the right answer again; the three calls in the order
    drawn.)"""
    q, k, x, num_heads, split = case
    with right_answers_first("test_uses_einops counts only right answers as made with einops: the function's own "
                             "test fails the same way"):
        right = {attention_scores.name: check_attention_scores(impl, oracle, q, k),
                 split_heads.name: check_split_heads(impl, oracle, x, num_heads),
                 merge_heads.name: check_merge_heads(impl, oracle, split)}
    inputs = {attention_scores.name: (q, k), split_heads.name: (x, num_heads), merge_heads.name: (split,)}
    source_of(impl)  # it parses
    for function, op in EXPECTED_OPS:
        name = function.name.split(".")[1]
        # in named.py and any module of yours it takes a helper from
        refuse_unless(bool(package_names(impl.sources(), "named", name, einops_call(op))), function.name,
                      f"never calls einops.{op}: write it with einops.{op} and named axes, as the docstring asks")
    for function, op in EXPECTED_OPS:
        args = inputs[function.name]
        seen = ask(impl, None, einops_doubled, function.name, order, *args).got
        again = type(seen.plain) is torch.Tensor and seen.plain.shape == right[function.name].shape \
            and torch.equal(seen.plain, right[function.name])
        require(again, function.name, "gave another answer to the same inputs, called again (einops as it is): an "
                "answer must depend on the inputs alone", inputs=named_inputs(function.name, args),
                show_values=False)
        growth = einops_growth(seen.plain, seen.doubled)
        require(growth != 1.0, function.name,
                f"gave the same answer with every result of einops doubled: the einops.{op} it names does not "
                f"make the answer (a branch never taken, a result thrown away or added as zeros, an identity "
                f"pattern). Compute the result with einops.{op}, as the docstring asks",
                inputs=named_inputs(function.name, args),
                show_values=False)
        require(growth is not None, function.name,
                f"with every result of einops doubled, the answer moved but did not double (nor grow by another "
                f"power of two, as an answer einops makes does, one doubling per einops step): the einops.{op} "
                f"it names is not what the answer is made of (an einops result added to an answer made another "
                f"way?). Compute the result with einops.{op}, as the docstring asks",
                inputs=named_inputs(function.name, args), show_values=False)
        handed = "q and k" if op == "einsum" else "x"
        tied = einops_growth(seen.plain, seen.tied)
        require(tied not in (None, 1.0), function.name,
                f"with only the einops steps handed {handed} doubled (their values, scaled, cast, sliced or moved), "
                f"the answer {'stayed as it was' if tied == 1.0 else 'did not double'}: the einops.{op} that makes "
                f"it was handed something other than {handed} (an answer made another way, or its parts to add "
                f"up?). Compute the result with einops.{op} of {handed}, as the docstring asks",
                inputs=named_inputs(function.name, args), show_values=False)
        if op == "einsum":  # the scores are a contraction of q and k: one einops step must make it
            require(type(seen.arities) is tuple and any(type(n) is int and n >= 2 for n in seen.arities),
                    function.name, "never gave einops.einsum two tensors: the scores, a contraction of q and k, "
                    "were made another way (einops only moved them). Contract q and k with einops.einsum, as "
                    "the docstring asks", inputs=named_inputs(function.name, args), show_values=False)
        shapes = [a.shape for a in args if type(a) is torch.Tensor] + [right[function.name].shape]
        # a contraction over 2 or more terms: its inputs never hold its answer's values, in whatever order (over one
        # term, with one key, q times a number is the scores)
        if op == "einsum" and args[0].shape[-1] >= 2:
            require(not given_the_answer_in_any_order(seen.inputs, seen.plain), function.name,
                    "handed einops.einsum the scores already made (their values, laid out otherwise or not): the "
                    "einsum it names only moves scores made another way (q @ k transposed?). Contract q and k with "
                    "einops.einsum, as the docstring asks", inputs=named_inputs(function.name, args), show_values=False)
        if all(1 not in shape for shape in shapes) and num_heads != 1:
            require(not given_the_answer(seen.inputs, seen.plain), function.name,
                    f"handed einops the answer already made (its values in their order, or copies of it): the "
                    f"einops.{op} it names passes an answer made another way through (flattened and reshaped back, "
                    f"moved and moved back). Compute the result with einops.{op}, as the docstring asks",
                    inputs=named_inputs(function.name, args), show_values=False)
        require(made_of_results(seen.results, seen.plain), function.name,
                f"is not what einops returned: no einops result holds the answer's values (up to a constant "
                f"factor and their order), so the einops.{op} it names does not compute the answer (one applied "
                f"to something else, a tensor of ones, and multiplied in?). Compute the result with einops.{op}, "
                f"as the docstring asks", inputs=named_inputs(function.name, args), show_values=False)
        # ... and by the steps handed the inputs: an einops result of q only multiplied in is not
        require(made_of_results(seen.tied_results, seen.plain), function.name,
                f"is not what the einops steps handed {handed} returned: none of their results holds the answer's "
                f"values (up to a constant factor and their order), so the answer is made another way (an einops "
                f"result of {handed} multiplied in as a factor?). Compute the result with einops.{op} of {handed}, "
                f"as the docstring asks", inputs=named_inputs(function.name, args), show_values=False)
