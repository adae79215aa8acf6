"""Part 7 — gradients by hand (assignment/gradients.py).

Values: float sums may round differently in a different order, so each value is
compared with the reference's within the rounding error a sum of k terms can have,
elementwise: 4·(k+2)·(eps·B + tiny), eps and tiny of the inputs' dtype, and B the
same formula with every input replaced by its absolute value (the largest the
rounding error can scale with):

    squared_error_grad  B = |x|·(|x|·|w| + |target|)   k = len(x)
    grad_x              B = |grad_y| @ |w|ᵀ             k = d_out
    grad_w              B = |x|ᵀ @ |grad_y|             k = n

That is a few roundings per term: any correct formula passes, in any order of
summation, and a wrong sign, factor or transposition misses by far more. Dtype and
shape must be the inputs' exactly.

No autograd: your gradients.py is read (never run) for any use of autograd, or of
a way to reach it unseen, in the code the two functions run (``audit_no_autograd``),
and each function is called once more with the ops it runs seen from below autograd:
none may build an autograd graph or run a backward (``autograd_watched``).
"""

import ast
import dataclasses

import torch

from grader.harness import spec
from grader.harness.ask import Answers, ask, fail, refuse, right_answers_first
from grader.harness.cases import example, given
from grader.harness.faults import named_inputs
from grader.harness.probes.part07 import autograd_watched
from grader.harness.schema import Anything, Schema, Tensor, Tuple
from grader.harness.show import Later
from grader.harness.source import assigned_at_top, audit_no_autograd, handed_on_at
from tests.strategies import part07 as S

squared_error_grad = spec.function("gradients.squared_error_grad")
linear_backward = spec.function("gradients.linear_backward")


class Gradients(Schema):
    """A tuple (grad_x, grad_w) of which only one, ``item``, is checked against ``schema``:
    a wrong grad_w must not cost the grad_x test, and the reverse."""

    NAMES = ("grad_x", "grad_w")
    text = "a tuple (grad_x, grad_w)"

    def __init__(self, item: int, schema: Schema) -> None:
        self.item, self.schema = item, schema
        self.pair = Tuple(Anything(), Anything())
        self.pair.text = self.text

    def plain(self, value):
        return self.pair.plain(value)  # a named tuple (grad_x, grad_w) is the pair

    def problem(self, value):
        why = self.pair.problem(value)
        if why:
            return why
        why = self.schema.problem(value[self.item])
        return f"{self.NAMES[self.item]}: {why}" if why else None


def within_roundings(answers: Answers, scale: torch.Tensor, terms: int, formula: str, name: str = "") -> Answers:
    """The answer must be the reference's within 4·(terms+2)·(eps·scale + tiny), elementwise."""
    info = torch.finfo(answers.expected.dtype)
    dtype = str(answers.expected.dtype).removeprefix("torch.")
    how = f"compared elementwise within 4·(k+2)·eps·B with B = {formula}, k = {terms}, eps = {info.eps:.3g} of {dtype}"
    answers.elementwise(4 * (terms + 2) * (info.eps * scale + info.tiny), how, problem=f"wrong value{name}")
    return answers


def check_squared_error_grad(impl, oracle, x, w, target) -> Answers:
    return judge_squared_error_grad(ask(impl, oracle, squared_error_grad, x, w, target), x, w, target)


def check_grad_x(impl, oracle, x, w, grad_y) -> Answers:
    return judge_grad_x(ask(impl, oracle, linear_backward, x, w, grad_y), x, w, grad_y)


def check_grad_w(impl, oracle, x, w, grad_y) -> Answers:
    return judge_grad_w(ask(impl, oracle, linear_backward, x, w, grad_y), x, w, grad_y)


def judge_squared_error_grad(answers: Answers, x, w, target) -> Answers:
    x64, w64 = x.double().abs(), w.double().abs()
    answers = read_as(answers, Tensor(x.dtype, tuple(x.shape)))
    return within_roundings(answers, x64 * (x64 @ w64 + abs(target)), len(x), "|x|·(|x|·|w| + |target|)")


def judge_grad_x(answers: Answers, x, w, grad_y) -> Answers:
    answers = read_as(answers, Gradients(0, Tensor(x.dtype, tuple(x.shape)))).check()
    return within_roundings(answers.where(0), grad_y.double().abs() @ w.double().abs().T, w.shape[1],
                            "|grad_y| @ |w|ᵀ", " in grad_x")


def judge_grad_w(answers: Answers, x, w, grad_y) -> Answers:
    answers = read_as(answers, Gradients(1, Tensor(w.dtype, tuple(w.shape)))).check()
    return within_roundings(answers.where(1), x.double().abs().T @ grad_y.double().abs(), x.shape[0],
                            "|x|ᵀ @ |grad_y|", " in grad_w")


def read_as(answers: Answers, returns: Schema) -> Answers:
    """The implementation's answer read as ``returns`` reads it (a named tuple is the pair), to be checked
    against it: a plain call's or a watched call's (``autograd_watched``'s answer) alike."""
    return dataclasses.replace(answers, got=returns.plain(answers.got), returns=returns)


LECTURE = (torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 1.0, 1.0]), 5.0)
SMALL_LINEAR = (torch.tensor([[1.0, 2.0]]), torch.tensor([[3.0], [4.0]]), torch.tensor([[1.0]]))
# all three square, none symmetric: a transpose left out (grad_y @ w, grad_y.T @ x) still fits the shapes here
SQUARE_LINEAR = (torch.tensor([[1.0, 2.0, 0.0], [0.0, 1.0, 3.0], [2.0, 0.0, 1.0]]),
                 torch.tensor([[1.0, 2.0, 3.0], [0.0, 1.0, 4.0], [5.0, 6.0, 0.0]]),
                 torch.tensor([[1.0, 0.0, 2.0], [3.0, 1.0, 0.0], [0.0, 2.0, 1.0]]))

# an empty batch (the docstring: fine): grad_w is all zeros (a Python sum over the rows gives the int 0; a reshape
# of x with a size left to infer, an error); the hidden tests ask grad_x's shape too
EMPTY_BATCH = (torch.empty(0, 2), torch.tensor([[1.0, 2.0, 0.0], [0.0, 1.0, 3.0]]), torch.empty(0, 3))


@given(case=S.squared_error_cases())
@example(case=LECTURE)
def test_squared_error_grad(impl, oracle, case):
    check_squared_error_grad(impl, oracle, *case)


@given(case=S.linear_cases())
@example(case=SMALL_LINEAR)
@example(case=SQUARE_LINEAR)
def test_linear_backward_grad_x(impl, oracle, case):
    check_grad_x(impl, oracle, *case)


@given(case=S.linear_cases())
@example(case=SMALL_LINEAR)
@example(case=SQUARE_LINEAR)
@example(case=EMPTY_BATCH)
def test_linear_backward_grad_w(impl, oracle, case):
    check_grad_w(impl, oracle, *case)


COMPILERS = ("compile", "jit", "export", "fx")  # torch's, read as autograd's (they trace it): said as what they are


def _compiles(finding) -> bool:
    return finding.autograd and any(part in COMPILERS for part in finding.what.split(" ")[1].split("."))


def _run_by_the_gradients(sources: dict[str, str], name: str, findings: list) -> list:
    """``findings`` but a compiled or traced copy made when gradients.py (or a module of the submission's own) is
    imported that the gradient function never runs (``fast_loss = torch.compile(loss)``, to time beside it): the
    handout welcomes torch.compile but on the gradient functions, and what the copy's function runs is read as
    any import-time code is. Only a copy kept under a name its module binds at its top alone
    (``assigned_at_top``): the reading of what the gradient functions run follows such a name wherever they
    use it."""
    if not any(_compiles(f) for f in findings):
        return findings
    run = {(f.where, f.what) for f in audit_no_autograd(sources, "gradients", (name,), import_time=False)}
    return [f for f in findings
            if not _compiles(f) or (f.where, f.what) in run or not assigned_at_top(sources, f.where)]


def _own_attribute_names(sources: dict[str, str]) -> set[str]:
    """The names the submission's own classes define as methods or set on ``self`` (``def backward``,
    ``self.grad = ...``): read, never run."""
    names = set()
    for text in sources.values():
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                names.update(n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
                names.update(n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
                             and not isinstance(n.ctx, ast.Load) and isinstance(n.value, ast.Name)
                             and n.value.id == "self")
    return names


def no_autograd(impl, function, returned: list) -> None:
    """Nothing autograd in the code ``function`` runs (read from the source), nor in what it returned."""
    name = function.name.split(".")[1]
    sources = impl.sources()  # (a copy each time it is asked: asked once)
    findings = _run_by_the_gradients(sources, name, audit_no_autograd(sources, "gradients", (name,)))
    uses = [f"{f.what} at {f.where}" for f in findings if f.autograd]
    compilers = [f"{f.what} at {f.where}" for f in findings if _compiles(f)]
    if compilers and len(compilers) == len(uses):
        refuse(function.name, f"compiles or traces code ({'; '.join(compilers[:3])}), and torch's compilers run "
               "autograd's machinery unread by this check: the gradient functions, and what gradients.py runs when "
               "imported, must run as written. Leave them uncompiled (time a compiled copy in a __main__ block)")
    # what importing gradients.py (and the package) runs, which no function needs to call: said as such, so that
    # a cross-check kept in the module (an autograd.Function, a .backward() at its top) is not blamed on `function`
    # (read only where there is something to say: this runs for every example)
    at_import = {(f.where, f.what) for f in audit_no_autograd(sources, "gradients", ()) if f.autograd} \
        if uses else set()
    if uses and all((f.where, f.what) in at_import for f in findings if f.autograd):
        subclass = "; a subclass of torch.autograd.Function runs autograd's machinery as it is defined, and its " \
            "methods are read with it" if any(use.split(" ")[1].endswith("Function") for use in uses) else ""
        # (a function handed to a decorator of its own, which may keep it where any call reaches it, is read so too)
        handed = any(handed_on_at(sources, f.where) for f in findings if f.autograd)
        refuse(function.name, f"what importing gradients.py runs{', or a function it hands to a decorator,' * handed} "
               f"uses autograd ({'; '.join(uses[:3])}{subclass}): the module's import-time code is read with the "
               "gradient functions, though they never call it" + (", and so is what a decorator is handed (it may "
               "keep it where any call reaches it)" if handed else "") + ". Keep a cross-check against autograd "
               "under if __name__ == \"__main__\": (it never runs when graded), or in a file of its own that "
               "nothing imports")
    if uses:
        # a name autograd's objects have, where the submission's own class has it too: on an object the reading
        # cannot trace to that class (one taken from a list, a parameter), it may be a tensor's
        own = sorted({f.what.split(".")[-1] for f in findings if f.autograd and f.what.startswith("uses .")}
                     & _own_attribute_names(sources))
        yours = f" (if .{own[0]} there is your own class's: the reading cannot tell that object from a tensor, " \
            f"which has a .{own[0]} too; give yours another name, or call it on a local made by your class)" \
            if own else ""
        refuse(function.name, f"used autograd ({'; '.join(uses[:3])}){yours}: compute the gradient with the formula, "
               "using plain tensor ops")
    hidden = [f"{f.what} at {f.where}" for f in findings if not f.autograd]
    if hidden:
        refuse(function.name, f"{'; '.join(hidden[:3])}: a gradient by hand needs nothing of the kind, and it hides "
               "from the check that no autograd is used. Write the formula with plain tensor ops")
    if any(getattr(t, "wire_requires_grad", False) for t in returned):
        fail(function.name, "used autograd (the result is attached to an autograd graph): compute the gradient "
             "with the formula, using plain tensor ops")


def no_autograd_ran(impl, oracle, function, args: tuple, check_answer) -> None:
    """Called on inputs of its own with every op it runs seen from below autograd (``autograd_watched``): no op
    was given or made a tensor that requires grad, none ran inside autograd's engine or a forward-mode level, and
    no thread of its own ran; and its answer is right (``check_answer``), so that a table of earlier calls'
    answers, which runs nothing, is no way past the watch."""
    watched = ask(impl, oracle, autograd_watched, function.name, *args)
    seen = watched.got
    how = "a name built at run time, a method looked up by its name, an optimizer reading .grad?"
    if seen.engine:
        fail(function.name, f"ran autograd's engine (a backward) as it ran, though its source names no autograd ({how}): "
             "compute the gradient with the formula, using plain tensor ops")
    if seen.graph:
        fail(function.name, f"built an autograd graph as it ran (an op was given a tensor that requires grad), though "
             f"its source names no autograd ({how}): compute the gradient with the formula, using plain tensor ops")
    if seen.dual:
        fail(function.name, f"ran ops under forward-mode autograd (dual tensors: make_dual, torch.func.jacfwd, jvp), "
             f"though its source names no autograd ({how}): compute the gradient with the formula, using plain "
             "tensor ops")
    if seen.threads:
        fail(function.name, "had a thread of its own run as it ran (started by the call, or when its module was "
             "imported): a gradient by hand needs none, and the check that no autograd runs does not follow code into "
             "other threads. Compute the gradient in the call itself")
    answer = watched.where("answer").about(function.name)  # shown with the function's own parameter names
    check_answer(dataclasses.replace(answer, inputs=Later(lambda: named_inputs(function.name, args))))


# the watched calls' public inputs: asked by no other test (an answer kept from another call is no answer here)
WATCHED_SQUARED = (torch.tensor([2.0, -1.0, 0.5]), torch.tensor([0.5, 1.5, -1.0]), -2.0)
WATCHED_LINEAR = (torch.tensor([[1.0, -2.0, 0.5], [0.0, 3.0, 1.0]]),
                  torch.tensor([[2.0, 1.0], [-1.0, 0.5], [0.5, 4.0]]), torch.tensor([[1.0, -1.0], [2.0, 0.5]]))


@given(squared=S.squared_error_cases(), linear=S.linear_cases(), watched_squared=S.squared_error_cases(),
       watched_linear=S.linear_cases())
@example(squared=LECTURE, linear=SMALL_LINEAR, watched_squared=WATCHED_SQUARED, watched_linear=WATCHED_LINEAR)
def test_no_autograd(impl, oracle, squared, linear, watched_squared, watched_linear):
    """Right gradients, computed without autograd: none named in the source, and none run (watched on inputs
    drawn apart from the others, its answer checked too)."""
    with only_right_gradients_count():
        grad = check_squared_error_grad(impl, oracle, *squared).got
    no_autograd(impl, squared_error_grad, [grad])
    no_autograd_ran(impl, oracle, squared_error_grad, watched_squared,
                    only_right_gradients_count()(lambda answers: judge_squared_error_grad(answers, *watched_squared)))
    with only_right_gradients_count():
        grads = [check_grad_x(impl, oracle, *linear).got, check_grad_w(impl, oracle, *linear).got]
    no_autograd(impl, linear_backward, grads)
    no_autograd_ran(impl, oracle, linear_backward, watched_linear, only_right_gradients_count()(
        lambda answers: (judge_grad_x(answers, *watched_linear), judge_grad_w(answers, *watched_linear))))


def only_right_gradients_count():
    """A wrong gradient fails test_no_autograd too (a function that computes nothing uses no autograd: only
    right gradients count as computed without it), and its message says so. Also a decorator of a check."""
    return right_answers_first("test_no_autograd counts only right gradients as computed without autograd: the "
                               "fault is the gradient's own, as in the test of its value")
