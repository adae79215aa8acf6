"""Staff check: the Part 6 reference agrees with plain torch, its annotations really are
checked by the jaxtyping + typeguard pair the tests use, and reading a source finds what it claims.
"""

import ast
import math
from pathlib import Path

import pytest
import torch
import typeguard
from hypothesis import given
from jaxtyping import Float, TypeCheckError, jaxtyped

from grader.harness.source import Annotation, Module, Plain
from grader.harness.typecheck import DTYPES, check_call
from reference import named as R
from tests.strategies import part06 as S

ROOT = Path(__file__).resolve().parent.parent


def checked(fn):
    return jaxtyped(fn, typechecker=typeguard.typechecked)


@given(S.attention_cases())
def test_attention_scores_is_matmul_over_sqrt_dim(case):
    q, k = case
    # [batch heads seq_q dim] @ [batch heads dim seq_k], in float64
    expected = q.double().transpose(1, 2) @ k.double().permute(0, 2, 3, 1) / math.sqrt(q.shape[-1])
    torch.testing.assert_close(checked(R.attention_scores)(q, k).double(), expected,
                               rtol=1e-5, atol=1e-5 * float(expected.abs().max()))


@given(S.split_cases())
def test_split_heads_is_view_and_transpose(case):
    x, heads = case
    batch, seq, model = x.shape
    expected = x.view(batch, seq, heads, model // heads).transpose(1, 2)
    assert torch.equal(checked(R.split_heads)(x, heads), expected)
    assert torch.equal(checked(R.merge_heads)(expected), x)  # the inverse


@given(S.merge_cases())
def test_merge_heads_is_transpose_and_reshape(x):
    batch, heads, seq, head_dim = x.shape
    expected = x.transpose(1, 2).reshape(batch, seq, heads * head_dim)
    assert torch.equal(checked(R.merge_heads)(x), expected)


def test_docstring_examples():
    ones = torch.ones(2, 3, 8, 64)
    scores = R.attention_scores(ones, ones)
    assert scores.shape == (2, 8, 3, 3) and bool((scores == 8.0).all())
    x = torch.arange(12.0).reshape(1, 2, 6)
    split = R.split_heads(x, 2)
    assert split.tolist() == [[[[0, 1, 2], [6, 7, 8]], [[3, 4, 5], [9, 10, 11]]]]
    assert torch.equal(R.merge_heads(split), x)
    with pytest.raises(TypeCheckError):  # the module docstring's "try the checker yourself"
        checked(R.attention_scores)(torch.ones(3, 8, 64), torch.ones(2, 3, 8, 64))


def test_checker_pair_really_checks():
    """jaxtyping 0.3.11 + typeguard 2.13.3 raise on a wrong argument and on a wrong result;
    a correct call passes."""
    def wrong_result(
        q: Float[torch.Tensor, "batch seq_q heads dim"],
        k: Float[torch.Tensor, "batch seq_k heads dim"],
    ) -> Float[torch.Tensor, "batch heads seq_q seq_k"]:
        return torch.einsum("bihd,bjhd->bihj", q, k)  # [batch seq_q heads seq_k]

    q, k = torch.ones(2, 3, 4, 5), torch.ones(2, 6, 4, 5)
    assert checked(R.attention_scores)(q, k).shape == (2, 4, 3, 6)
    with pytest.raises(TypeCheckError):
        checked(R.attention_scores)(q[0], k)
    with pytest.raises(TypeCheckError):
        checked(R.attention_scores)(q, torch.ones(3, 6, 4, 5))
    with pytest.raises(TypeCheckError):
        checked(R.attention_scores)(q, torch.ones(2, 6, 4, 7))  # dim differs
    with pytest.raises(TypeCheckError):
        checked(R.attention_scores)(q.int(), k.int())  # Float
    with pytest.raises(TypeCheckError):
        checked(wrong_result)(q, k)


@pytest.mark.parametrize("call", [
    lambda: R.split_heads(torch.ones(1, 2, 6), 4),
    lambda: R.split_heads(torch.ones(1, 2, 6), 0),
    lambda: R.attention_scores(torch.ones(2, 3, 4), torch.ones(2, 3, 4, 5)),
    lambda: R.attention_scores(torch.ones(2, 3, 4, 5), torch.ones(3, 3, 4, 5)),
    lambda: R.attention_scores(torch.ones(2, 3, 4, 5), torch.ones(2, 3, 4, 6)),
], ids=["heads do not divide", "zero heads", "3-D q", "batch differs", "dim differs"])
def test_bad_arguments_raise_value_error(call):
    with pytest.raises(ValueError, match=r"\w"):
        call()


# ---------------------------------------------------------------- reading the source, checking here
REFERENCE = Module.parse((ROOT / "reference" / "named.py").read_text(), "named")
PARAMS = {"attention_scores": ("q", "k"), "split_heads": ("x", "num_heads"), "merge_heads": ("x",)}


def test_the_reference_annotations_are_read_as_written():
    found = REFERENCE.annotations("attention_scores")
    assert found["q"] == Annotation("Float", "torch.Tensor", "batch seq_q heads dim")
    assert found["return"] == Annotation("Float", "torch.Tensor", "batch heads seq_q seq_k")
    assert REFERENCE.annotations("split_heads")["num_heads"] == Plain("int")


def test_the_check_here_accepts_right_shapes_and_stops_wrong_ones():
    ann = REFERENCE.annotations("attention_scores")
    q, k = torch.ones(2, 3, 4, 5), torch.ones(2, 6, 4, 5)
    good = R.attention_scores(q, k)
    assert check_call(ann, PARAMS["attention_scores"], (q, k), good) is None
    assert check_call(ann, PARAMS["attention_scores"], (q[0], k)).startswith("parameter 'q' is f32[3,4,5]")
    assert check_call(ann, PARAMS["attention_scores"], (q, torch.ones(3, 6, 4, 5))) is not None
    assert check_call(ann, PARAMS["attention_scores"], (q, torch.ones(2, 6, 4, 7))) is not None  # dim differs
    assert check_call(ann, PARAMS["attention_scores"], (q.int(), k.int())) is not None  # Float
    wrong = torch.einsum("bihd,bjhd->bihj", q, k)  # [batch seq_q heads seq_k]
    assert check_call(ann, PARAMS["attention_scores"], (q, k), wrong).startswith("return value is f32[2,3,4,6]")


def test_the_checker_is_typeguard_2_and_really_checks():
    """jaxtyping 0.3.11 + typeguard 2.13.3 raise on a wrong argument and on a wrong result
    (typeguard 3 and 4 would silently check nothing); a correct call passes."""
    import typeguard

    assert typeguard.typechecked.__module__ == "typeguard" and not hasattr(typeguard, "TypeCheckError")
    checked = jaxtyped(R.attention_scores, typechecker=typeguard.typechecked)
    q, k = torch.ones(2, 3, 4, 5), torch.ones(2, 6, 4, 5)
    assert checked(q, k).shape == (2, 4, 3, 6)
    with pytest.raises(TypeCheckError):
        checked(q[0], k)


PAYLOAD = '{__import__("builtins").setattr(__import__("builtins"), "ANNOTATION_RAN", 1) or "seq"}'


@pytest.mark.parametrize("axis", [PAYLOAD, "seq**9**9", 'n=len("abc")', '_(__import__("os"))', "seq.real"])
def test_an_axis_jaxtyping_would_evaluate_is_refused_never_run(axis):
    """A symbolic axis goes through eval in jaxtyping's check, and the check runs in the grading
    process: the annotation is refused with a message, and whatever it holds never runs."""
    import builtins

    source = f"def split_heads(x: Float[torch.Tensor, 'batch {axis}'], num_heads: int):\n    return x\n"
    module = Module.parse("import torch\nfrom jaxtyping import Float\n" + source, "named")
    complaint = check_call(module.annotations("split_heads"), PARAMS["split_heads"], (torch.ones(2, 3), 1),
                           torch.ones(2, 3))
    assert complaint and "run as code" in complaint and not hasattr(builtins, "ANNOTATION_RAN")


def test_an_axis_of_arithmetic_is_checked_as_jaxtyping_checks_it():
    """``heads*head_dim`` in a return annotation (what merge_heads makes): checked, and a wrong size told;
    an axis no argument binds is told, not raised."""
    source = "def merge_heads(x: Float[torch.Tensor, 'batch heads seq head_dim']) -> " \
             "Float[torch.Tensor, 'batch seq heads*head_dim']:\n    return x\n"
    header = "import torch\nfrom jaxtyping import Float\n"
    annotations = Module.parse(header + source, "named").annotations("merge_heads")
    x = torch.ones(2, 3, 4, 5)
    assert check_call(annotations, ("x",), (x,), torch.ones(2, 4, 15)) is None
    wrong = check_call(annotations, ("x",), (x,), torch.ones(2, 4, 16))
    assert wrong and "heads*head_dim" in wrong and "head_dim=5" in wrong, wrong
    unbound = Module.parse(header + source.replace("heads*head_dim", "h*d"), "named").annotations("merge_heads")
    assert "could not be worked out" in check_call(unbound, ("x",), (x,), torch.ones(2, 4, 15))


def test_annotations_of_a_function_made_an_alias_are_its_own():
    """``merge_heads = _merge`` at the end of named.py: the same function, read through the alias (a name bound
    again in a loop is not followed)."""
    source = "def _merge(x: int, y: str) -> float:\n    return 1.0\n"
    assert Module.parse(source + "merge_heads = _merge\n", "named").annotations("merge_heads")["y"] == Plain("str")
    looped = Module.parse(source + "merge_heads = _merge\nfor merge_heads in [len]:\n    pass\n", "named")
    assert looped.annotations("merge_heads") is None


@pytest.mark.parametrize("binding", [
    "merge_heads = jaxtyped(_merge, typechecker=typechecked)\n",  # the stub's own form
    "merge_heads = jaxtyped(typechecker=typechecked)(_merge)\n",
    "merge_heads = typechecked(_merge)\n",
])
def test_annotations_of_a_function_a_checker_wraps_by_a_call_are_its_own(binding):
    """``f = D(g)`` is ``@D def f``: the annotations read are g's (a call that changes what the function takes,
    ``partial(g, y='a')``, is no such wrapper)."""
    source = ("from jaxtyping import jaxtyped\nfrom typeguard import typechecked\nimport functools\n"
              "def _merge(x: int, y: str) -> float:\n    return 1.0\n")
    assert Module.parse(source + binding, "named").annotations("merge_heads")["y"] == Plain("str")
    partial = Module.parse(source + "merge_heads = functools.partial(_merge, y='a')\n", "named")
    assert partial.annotations("merge_heads") is None


def test_a_function_a_checker_wraps_after_its_def_is_read_as_decorated():
    """``merge_heads = jaxtyped(merge_heads, typechecker=typechecked)`` after ``def merge_heads`` is the stub's
    decorator written after the def (round 32: read as no function at all); a binding between them ends it."""
    source = ("from jaxtyping import jaxtyped\nfrom typeguard import typechecked\n"
              "def merge_heads(x: int, y: str) -> float:\n    return 1.0\n")
    wrap = "merge_heads = jaxtyped(merge_heads, typechecker=typechecked)\n"
    module = Module.parse(source + wrap, "named")
    assert module.annotations("merge_heads")["y"] == Plain("str") and not module.rebound("merge_heads")
    assert [ast.unparse(d) for d in module.function_def("merge_heads").decorator_list] == \
        ["jaxtyped(typechecker=typechecked)"]
    assert Module.parse(source + "merge_heads = len\n" + wrap, "named").annotations("merge_heads") is None


def test_annotations_removed_accept_anything():
    bare = Module.parse("def attention_scores(q, k):\n    return q\n", "named").annotations("attention_scores")
    assert check_call(bare, PARAMS["attention_scores"], (torch.ones(3), torch.ones(2))) is None


FROM_IMPORT = """
import math
from einops import einsum as es, rearrange
import einops as e


def _scores(q, k):
    return es(q, k, "b i h d, b j h d -> b h i j")


def attention_scores(q, k):
    return _scores(q, k) / math.sqrt(q.shape[-1])


def split_heads(x, num_heads):
    return e.rearrange(x, "b s (h d) -> b h s d", h=num_heads)


def merge_heads(x):
    return rearrange(x, "b h s d -> b s (h d)")


def unused():
    return es
"""


def test_einops_calls_are_found_however_imported_and_through_helpers():
    assert REFERENCE.calls("attention_scores", "einops.einsum") and REFERENCE.calls("split_heads", "einops.rearrange")
    module = Module.parse(FROM_IMPORT, "named")
    assert module.calls("attention_scores", "einops.einsum")
    assert module.calls("split_heads", "einops.rearrange") and module.calls("merge_heads", "einops.rearrange")
    assert not module.calls("merge_heads", "einops.einsum")
    matmul = Module.parse("import einops\ndef attention_scores(q, k):\n    return q @ k\n", "named")
    assert matmul.calls("attention_scores", "einops.einsum") == []


NOT_EINOPS = {
    "a branch that never runs": "import einops, torch\ndef attention_scores(q, k):\n    if False:\n"
                                "        einops.einsum(q, k, 'b i h d, b j h d -> b h i j')\n"
                                "    return torch.einsum('bihd,bjhd->bhij', q, k)\n",
    "not True": "import einops, torch\ndef attention_scores(q, k):\n    while not True:\n"
                "        einops.einsum(q, k, 'b i h d, b j h d -> b h i j')\n"
                "    return torch.einsum('bihd,bjhd->bhij', q, k)\n",
    "a name rebound to torch's": "import torch\nfrom einops import einsum\neinsum = torch.einsum\n"
                                 "def attention_scores(q, k):\n    return einsum('bihd,bjhd->bhij', q, k)\n",
    "the function rebound": "import torch\nfrom einops import einsum\ndef attention_scores(q, k):\n"
                            "    return einsum(q, k, 'b i h d, b j h d -> b h i j')\n"
                            "def _plain(q, k):\n    return torch.einsum('bihd,bjhd->bhij', q, k)\n"
                            "attention_scores = _plain\n",
    "shadowed in the function": "import torch\nfrom einops import einsum\ndef attention_scores(q, k):\n"
                                "    einsum = torch.einsum\n    return einsum('bihd,bjhd->bhij', q, k)\n",
    "shadowed by a parameter": "import torch\nfrom einops import einsum\ndef attention_scores(q, k, einsum=torch.einsum):\n"
                               "    return einsum('bihd,bjhd->bhij', q, k)\n",
    "a flag set once": "import torch, einops\nUSE_EINOPS = False\ndef attention_scores(q, k):\n    if USE_EINOPS:\n"
                       "        return einops.einsum(q, k, 'b i h d, b j h d -> b h i j')\n"
                       "    return torch.einsum('bihd,bjhd->bhij', q, k)\n",
    "rebound by a function as it runs": "import torch\nfrom einops import einsum\ndef _fast():\n    global einsum\n"
                                        "    einsum = torch.einsum\n_fast()\ndef attention_scores(q, k):\n"
                                        "    return einsum('bihd,bjhd->bhij', q, k)\n",
    "short-circuited": "import torch, einops\ndef attention_scores(q, k):\n"
                       "    return (0 and einops.einsum(q, k, '')) or torch.einsum('bihd,bjhd->bhij', q, k)\n",
}


@pytest.mark.parametrize("name", sorted(NOT_EINOPS))
def test_einops_that_never_runs_is_not_a_call(name):
    assert Module.parse(NOT_EINOPS[name], "named").calls("attention_scores", "einops.einsum") == [], name


def test_einops_through_a_class_or_a_kept_fallback_is_a_call():
    through_class = ("from einops import einsum\nclass Heads:\n    @staticmethod\n    def scores(q, k):\n"
                     "        return einsum(q, k, 'b i h d, b j h d -> b h i j')\n"
                     "def attention_scores(q, k):\n    return Heads.scores(q, k)\n")
    assert Module.parse(through_class, "named").calls("attention_scores", "einops.einsum")
    fallback = ("try:\n    from einops import einsum\nexcept ImportError:\n    einsum = None\n"
                "def attention_scores(q, k):\n    return einsum(q, k, 'b i h d, b j h d -> b h i j')\n")
    assert Module.parse(fallback, "named").calls("attention_scores", "einops.einsum")
    for text in ("def attention_scores(q, k):\n    import einops as E\n    return E.einsum(q, k, 'b i h d, b j h d -> b h i j')\n",
                 "from einops import *\ndef attention_scores(q, k):\n    return einsum(q, k, 'b i h d, b j h d -> b h i j')\n",
                 "import einops\ndef attention_scores(q, k, contract=einops.einsum):\n"
                 "    return contract(q, k, 'b i h d, b j h d -> b h i j')\n",
                 "import functools, einops\nscores = functools.partial(einops.einsum, pattern='b i h d, b j h d -> b h i j')\n"
                 "def attention_scores(q, k):\n    return scores(q, k)\n"):
        assert Module.parse(text, "named").calls("attention_scores", "einops.einsum"), text


# ---------------------------------------------------------------- star imports and aliases of the package's own modules
AXES = ("import einops\n\n__all__ = ['scores']\n\n"
        "def scores(q, k):\n    return einops.einsum(q, k, 'b i h d, b j h d -> b h i j')\n")
STAR_NAMED = "import math\nfrom ._axes import *\n\ndef attention_scores(q, k):\n    return scores(q, k) / math.sqrt(q.shape[-1])\n"


def einsum_lines(named, others):
    from grader.harness.source import package_names

    return package_names({"named": named, **others}, "named", "attention_scores", lambda used: used == "einops.einsum")


def test_a_helper_defined_in_both_branches_of_an_if_is_read_in_each():
    """``if hasattr(einops, "einsum"): def _scores ... else: def _scores ...`` (a fallback): either def may be the
    one that runs, and each is read; only the last was, so the einops branch read as never calling einsum."""
    einops_first = ("import einops\nimport torch\n\nif hasattr(einops, 'einsum'):\n    def _scores(q, k):\n"
                    "        return einops.einsum(q, k, 'b q h d, b k h d -> b h q k')\nelse:\n"
                    "    def _scores(q, k):\n        return torch.einsum('bqhd,bkhd->bhqk', q, k)\n\n"
                    "def attention_scores(q, k):\n    return _scores(q, k)\n")
    assert einsum_lines(einops_first, {}) == ["named.py:6"]


def test_einops_in_a_helper_a_star_import_brings_is_a_call():
    assert einsum_lines(STAR_NAMED, {"_axes": AXES}) == ["_axes.py:6"]
    assert einsum_lines(STAR_NAMED, {"_axes": "from einops import einsum\n"}) == []  # einsum, but not `scores`
    hidden = {"if False": AXES.replace("def scores", "if False:\n  def scores").replace("    return", "    return"),
              "not in __all__": AXES.replace("['scores']", "[]"),
              "rebound there": AXES + "import os\nif os.environ.get('FAST'):\n    scores = lambda q, k: q @ k\n"}
    for name, axes in hidden.items():
        assert einsum_lines(STAR_NAMED, {"_axes": axes}) == [], name


Q = "Float[torch.Tensor, 'batch seq_q heads dim']"
READ = Annotation("Float", "torch.Tensor", "batch seq_q heads dim")


def test_a_star_import_of_jaxtyping_binds_its_dtypes():
    """jaxtyping has no ``__all__``: ``from jaxtyping import *`` binds its public names, the dtypes among them."""
    import jaxtyping

    namespace = {}
    exec("from jaxtyping import *", namespace)
    assert all(namespace[dtype] is getattr(jaxtyping, dtype) for dtype in DTYPES)
    starred = f"import torch\nfrom jaxtyping import *\n\ndef attention_scores(q: {Q}, k): ...\n"
    assert Module.parse(starred, "named").annotations("attention_scores")["q"] == READ
    for dtype in sorted(DTYPES):
        text = starred.replace("Float[", f"{dtype}[")
        assert Module.parse(text, "named").annotations("attention_scores")["q"].dtype == dtype
    # a Float of its own, in a branch: which one the function sees cannot be told
    own = starred.replace("\ndef", "import os\nif os.environ.get('LAX'):\n    class Float:\n"
                          "        def __class_getitem__(cls, item):\n            return torch.Tensor\n\ndef", 1)
    assert not isinstance(Module.parse(own, "named").annotations("attention_scores")["q"], Annotation)
TYPES = f"import torch\nfrom jaxtyping import Float\n\nQueries = {Q}\n"
# named.py's attention_scores annotated through a name of another module: (named.py, the other modules)
ALIASED = {
    "an alias imported by name": ("from ._types import Queries\n\ndef attention_scores(q: Queries, k): ...\n", {"_types": TYPES}),
    "an alias of a module imported": ("from . import _types\n\ndef attention_scores(q: _types.Queries, k): ...\n",
                                      {"_types": TYPES}),
    "a string annotation": ("from ._types import Queries\n\ndef attention_scores(q: 'Queries', k): ...\n", {"_types": TYPES}),
    "an alias a star import brings": ("from ._types import *\n\ndef attention_scores(q: Queries, k): ...\n", {"_types": TYPES}),
    "an alias the module imports in turn": ("from ._types import Queries\n\ndef attention_scores(q: Queries, k): ...\n",
                                            {"_types": "from ._base import Queries\n", "_base": TYPES}),
    "a shape bound once to a constant": ("import torch\nfrom jaxtyping import Float\n\nDIMS = 'batch seq_q heads dim'\n\n"
                                         "def attention_scores(q: Float[torch.Tensor, DIMS], k): ...\n", {}),
    "jaxtyping starred there": ("from ._types import Queries\n\ndef attention_scores(q: Queries, k): ...\n",
                                {"_types": TYPES.replace("from jaxtyping import Float", "from jaxtyping import *")}),
}
# ... and where the name may be something else when the function is called: not read as an annotation
NOT_ALIASED = {
    "bound only in a branch that never runs": ("from ._types import Queries\n\ndef attention_scores(q: Queries, k): ...\n",
                                               {"_types": TYPES.replace("Queries =", "if False:\n    Queries =")}),
    "rebound there in a branch": ("from ._types import Queries\n\ndef attention_scores(q: Queries, k): ...\n",
                                  {"_types": TYPES + "import os\nif os.environ.get('LAX'):\n    Queries = torch.Tensor\n"}),
    "imported in a branch": ("import os, torch\nif os.environ.get('LAX'):\n    Queries = torch.Tensor\nelse:\n"
                             "    from ._types import Queries\n\ndef attention_scores(q: Queries, k): ...\n", {"_types": TYPES}),
    "a module outside the package": ("from .._types import Queries\n\ndef attention_scores(q: Queries, k): ...\n",
                                     {"_types": TYPES}),
    "a module the reading does not have": ("from types_of_mine import Queries\n\ndef attention_scores(q: Queries, k): ...\n", {}),
    "a shape bound twice": ("import torch\nfrom jaxtyping import Float\n\nDIMS = 'batch seq_q heads dim'\nDIMS = 'b'\n\n"
                            "def attention_scores(q: Float[torch.Tensor, DIMS], k): ...\n", {}),
    "a later star import that may rebind it": ("import os\nfrom ._types import *\nif os.environ.get('LAX'):\n"
                                               "    from ._lax import *\n\ndef attention_scores(q: Queries, k): ...\n",
                                               {"_types": TYPES, "_lax": "import torch\nQueries = torch.Tensor\n"}),
}


@pytest.mark.parametrize("name", sorted(ALIASED))
def test_annotations_through_other_modules_are_read(name):
    named, others = ALIASED[name]
    assert Module.parse(named, "named").annotations("attention_scores", {"named": named, **others})["q"] == READ, name


@pytest.mark.parametrize("name", sorted(NOT_ALIASED))
def test_annotations_that_may_be_something_else_are_not_read(name):
    named, others = NOT_ALIASED[name]
    found = Module.parse(named, "named").annotations("attention_scores", {"named": named, **others})["q"]
    assert not isinstance(found, Annotation), name


IMPL = f"import torch\nfrom jaxtyping import Float\n\ndef attention_scores(q: {Q}, k): ...\n"
# named.py's attention_scores defined in another module of the submission's own: (named.py, the other modules)
IMPORTED = {
    "imported by name": ("from ._impl import attention_scores\n", {"_impl": IMPL}),
    "imported under another name": ("from ._impl import scores as attention_scores\n",
                                    {"_impl": IMPL.replace("def attention_scores", "def scores")}),
    "a star import": ("from ._impl import *\n", {"_impl": IMPL}),
    "the module's attribute": ("from . import _impl\n\nattention_scores = _impl.attention_scores\n", {"_impl": IMPL}),
    "through a module that imports it in turn": ("from ._api import attention_scores\n",
                                                 {"_api": "from ._impl import *\n", "_impl": IMPL}),
}


@pytest.mark.parametrize("name", sorted(IMPORTED))
def test_annotations_of_a_function_another_module_of_its_own_defines_are_read(name):
    """The library-author's layout (every public module re-exporting from a private one) is read as written."""
    named, others = IMPORTED[name]
    assert Module.parse(named, "named").annotations("attention_scores", {"named": named, **others})["q"] == READ, name


@pytest.mark.parametrize("named, impl", [
    ("import os\nif os.environ.get('X'):\n    from ._impl import attention_scores\n", IMPL),  # in a branch
    ("from ._impl import attention_scores\nattention_scores = len\n", IMPL),  # bound again
    ("from ._missing import attention_scores\n", IMPL),  # a module the reading does not have
    ("from ._impl import attention_scores\n", IMPL.replace("def attention_scores", "def other")),  # no such def
])
def test_a_function_imported_where_what_it_is_cannot_be_told_has_no_annotations(named, impl):
    assert Module.parse(named, "named").annotations("attention_scores", {"named": named, "_impl": impl}) is None


def test_an_annotated_jaxtyping_type_is_read_as_the_type():
    """``Annotated[Float[...], "a note"]``: jaxtyping and typeguard check the type inside; so does the reading."""
    from grader.harness.source import Annotation

    source = ("import torch\nfrom typing import Annotated\nfrom jaxtyping import Float\n\n"
              "PerHead = Annotated[Float[torch.Tensor, 'batch heads seq head_dim'], 'heads-major']\n\n"
              "def merge_heads(x: PerHead) -> Annotated[Float[torch.Tensor, 'batch seq model'], 'merged']:\n"
              "    return x\n")
    found = Module.parse(source, "named").annotations("merge_heads")
    assert found["x"] == Annotation("Float", "torch.Tensor", "batch heads seq head_dim")
    assert found["return"] == Annotation("Float", "torch.Tensor", "batch seq model")


def test_doubled_einops_doubles_the_reference_and_comes_back():
    """The probe behind "einops used": with einops' results doubled the reference's answers double (two
    rearranges in a row: four times), a function that only names einops in a branch never taken, or
    throws its result away, answers the same, one that adds an einops result of a token to an answer
    made another way moves some other way, and einops is itself again after the call."""
    import einops

    from grader.harness.probes.part06 import einops_doubled
    from tests.test_part06_named import einops_growth, made_of_results

    inputs = {"named.attention_scores": (torch.arange(48.0).reshape(2, 3, 2, 4), torch.arange(80.0).reshape(2, 5, 2, 4)),
              "named.split_heads": (torch.arange(48.0).reshape(2, 3, 8), 2),
              "named.merge_heads": (torch.arange(48.0).reshape(2, 2, 3, 4),)}

    class Functions:
        def __init__(self, **functions):
            self.functions = functions

        def function(self, name):
            return self.functions[name]

    def growth(fn, name, tied=False, given=None):
        seen = [einops_doubled.fn(Functions(**{name: fn}), name, order, *(given or inputs[name]))
                for order in (("doubled", "plain", "tied"), ("tied", "plain", "doubled"), ("plain", "tied", "doubled"))]
        for other in seen[1:]:
            for field in ("plain", "doubled", "tied"):
                assert type(getattr(other, field)) is type(getattr(seen[0], field))
                assert not isinstance(getattr(other, field), torch.Tensor) \
                    or torch.equal(getattr(other, field), getattr(seen[0], field))
        return einops_growth(seen[0].plain, seen[0].tied if tied else seen[0].doubled)

    def made_of_tied(fn, name):  # the answer holds the values of a result of the steps handed the inputs
        seen = einops_doubled.fn(Functions(**{name: fn}), name, ("plain", "doubled", "tied"), *inputs[name])
        return made_of_results(seen.tied_results, seen.plain)

    for name in inputs:
        assert growth(getattr(R, name.split(".")[1]), name) == 2.0, name
        assert growth(getattr(R, name.split(".")[1]), name, tied=True) == 2.0, name

    def in_two_steps(x, num_heads):
        x = einops.rearrange(x, "b s (h d) -> b s h d", h=num_heads)
        return einops.rearrange(x, "b s h d -> b h s d")

    def never_taken(x, num_heads):
        if x.dim() < 0:
            return einops.rearrange(x, "b s (h d) -> b h s d", h=num_heads)
        return x.view(*x.shape[:2], num_heads, -1).transpose(1, 2)

    def thrown_away(x, num_heads):
        einops.rearrange(x[:0], "b s (h d) -> b h s d", h=num_heads)
        return x.view(*x.shape[:2], num_heads, -1).transpose(1, 2)

    def zero_token_added(x, num_heads):
        return x.view(*x.shape[:2], num_heads, -1).transpose(1, 2) + einops.rearrange(x.new_zeros(1), "a -> a")

    def one_token_added(q, k):
        token = einops.einsum(q.new_ones(1), q.new_ones(1), "a, a -> a")
        return (q.permute(0, 2, 1, 3) @ k.permute(0, 2, 3, 1)) / 2 + token - 1

    def in_halves(x, num_heads):  # made with torch, two masked halves an einsum adds back up
        answer = x.view(*x.shape[:2], num_heads, -1).transpose(1, 2)
        mask = (torch.arange(answer.numel()) % 2).to(answer.dtype).reshape(answer.shape)
        halves = torch.stack([answer * mask, answer * (1 - mask)])
        return einops.einsum(halves, torch.ones(2), "two ..., two -> ...")

    def beside_one_discarded(q, k):  # an einsum of q and k made and thrown away, the answer added up in halves
        einops.einsum(q, k, "b i h d, b j h d -> b h i j")
        scores = q.permute(0, 2, 1, 3) @ k.permute(0, 2, 3, 1)
        return einops.einsum(torch.stack([scores, scores]), torch.full((2,), 0.5), "two ..., two -> ...")

    def per_head(q, k):  # honest: a loop over heads, q scaled first, each head's scores stacked
        q = q / math.sqrt(q.shape[-1])
        return torch.stack([einops.einsum(q[:, :, h], k[:, :, h], "b i d, b j d -> b i j")
                            for h in range(q.shape[2])], dim=1)

    def scale_as_a_tensor(q, k):  # honest: the scale handed to einsum as a third operand of one value
        scale = torch.tensor(1 / math.sqrt(q.shape[-1]))
        return einops.einsum(q, k, scale, "b i h d, b j h d, -> b h i j")

    assert growth(in_two_steps, "named.split_heads") == 4.0
    assert growth(in_two_steps, "named.split_heads", tied=True) == 4.0  # the second step is handed x's values
    # (drawn values: a half's zeros are no value of an input that holds none, as the tests' inputs never do)
    drawn = (torch.randn(2, 3, 8, generator=torch.Generator().manual_seed(0)), 2)
    assert growth(in_halves, "named.split_heads", given=drawn) == 2.0
    assert growth(in_halves, "named.split_heads", tied=True, given=drawn) == 1.0
    assert growth(beside_one_discarded, "named.attention_scores") == 2.0
    assert growth(beside_one_discarded, "named.attention_scores", tied=True) == 1.0
    def identity_operand(q, k):  # honest: the head axes paired through an identity matrix, scaled
        eye = torch.eye(q.shape[-1]) / math.sqrt(q.shape[-1])
        return einops.einsum(q, eye, k, "b i h d, d e, b j h e -> b h i j")

    def products_then_summed(q, k):  # honest: einsum's products kept, summed by einops.reduce
        products = einops.einsum(q, k, "b i h d, b j h d -> b h i j d")
        return einops.reduce(products, "b h i j d -> b h i j", "sum") / math.sqrt(q.shape[-1])

    def times_a_factor_of_one(q, k):  # made with torch, times 1 that einops made of q's values: doubles, holds none
        top = einops.reduce(q.abs(), "b i h d -> ", "max")
        return (q.permute(0, 2, 1, 3) @ k.permute(0, 2, 3, 1)) * (top / q.abs().max())

    assert growth(times_a_factor_of_one, "named.attention_scores", tied=True) == 2.0
    assert not made_of_tied(times_a_factor_of_one, "named.attention_scores")
    for name in inputs:
        assert made_of_tied(getattr(R, name.split(".")[1]), name), name
    for honest in (per_head, scale_as_a_tensor, identity_operand, products_then_summed):
        assert growth(honest, "named.attention_scores", tied=True) == 2.0, honest.__name__
        assert made_of_tied(honest, "named.attention_scores"), honest.__name__
    assert growth(never_taken, "named.split_heads") == 1.0 and growth(thrown_away, "named.split_heads") == 1.0
    assert growth(zero_token_added, "named.split_heads") == 1.0
    assert growth(one_token_added, "named.attention_scores") is None
    x = torch.arange(12.0).reshape(1, 2, 6)
    assert torch.equal(einops.rearrange(x, "b s (h d) -> b h s d", h=2), R.split_heads(x, 2))
    assert torch.equal(einops.einsum(x, x, "b s d, b t d -> b s t"), x @ x.transpose(1, 2))


@pytest.mark.parametrize("plain, doubled, growth", [
    (torch.tensor([1.0, 0.0, -3.0]), torch.tensor([8.0, 0.0, -24.0]), 8.0),
    (torch.tensor([1.0, 0.0, -3.0]), torch.tensor([1.0, 0.0, -3.0]), 1.0),
    (torch.tensor([1.0, 0.0, -3.0]), torch.tensor([2.0, 1.0, -6.0]), None),  # a zero moved
    (torch.tensor([1.0, 2.0]), torch.tensor([2.0, 3.0]), None),  # moved by one: added, not made
    (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 6.0]), None),  # not a power of two
    (torch.tensor([1.0, 2.0]), torch.tensor([0.5, 1.0]), None),  # shrank
    (torch.tensor([0.0, 0.0]), torch.tensor([1.0, 0.0]), None),
    (torch.tensor([1.0, 2.0]), "RuntimeError", None),
    (torch.tensor([1, 2]), torch.tensor([2, 4]), None),  # not a float answer
])
def test_einops_growth_is_a_power_of_two_for_every_value_or_nothing(plain, doubled, growth):
    from tests.test_part06_named import einops_growth

    assert einops_growth(plain, doubled) == growth


def test_einops_through_the_module_that_defines_it_is_a_call():
    from grader.harness.source import package_names
    from tests.test_part06_named import einops_call

    text = ("from einops import einops as E\n\ndef split_heads(x, num_heads):\n"
            "    return E.rearrange(x, 'b s (h d) -> b h s d', h=num_heads)\n")
    assert package_names({"named": text}, "named", "split_heads", einops_call("rearrange")) == ["named.py:4"]
    assert package_names({"named": text}, "named", "split_heads", einops_call("einsum")) == []


def test_a_float32_scale_is_told_from_float32_products():
    """float64 scores off by float32's rounding: one factor in every score (the scale, a float32 tensor), or each
    score its own amount (q and k cast to float32 before the product); the message names the one it sees."""
    from tests.test_part06_named import _one_factor

    q, k = torch.randn(2, 3, 2, 5, dtype=torch.float64), torch.randn(2, 4, 2, 5, dtype=torch.float64)
    products = torch.einsum("bihd,bjhd->bhij", q, k)
    expected = products / math.sqrt(5)
    allowed = 4 * 7 * torch.finfo(torch.float64).eps * torch.einsum("bihd,bjhd->bhij", q.abs(), k.abs())
    assert _one_factor(products / torch.sqrt(torch.tensor(5.0)), expected, allowed)
    assert not _one_factor(torch.einsum("bihd,bjhd->bhij", q.float(), k.float()).double() / math.sqrt(5),
                           expected, allowed)
    assert _one_factor(expected, expected, allowed)


def test_einops_a_helper_class_imports_in_its_body_is_a_call():
    """``class _E: from einops import rearrange``, called as ``_E.rearrange(...)`` (round 35): einops's own function."""
    from grader.harness.source import package_names
    from tests.test_part06_named import einops_call

    text = ("class _E:\n    from einops import rearrange\n\ndef split_heads(x, num_heads):\n"
            "    return _E.rearrange(x, 'b s (h d) -> b h s d', h=num_heads)\n")
    assert package_names({"named": text}, "named", "split_heads", einops_call("rearrange"))
