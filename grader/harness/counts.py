"""Exact integer counts (bytes, FLOPs) past 2**53 and 2**63, and what a wrong one says of itself.

A count that went through a float comes out rounded by about 2**-53 of it (float64) or 2**-24 (float32); one
kept in a fixed-width integer (numpy, a torch integer tensor, its sum or prod) wraps around by a multiple of
2**32 or 2**64; a wrong formula is off by far more. The hidden tests of Parts 3 and 4 draw sizes where each shows.
"""

from __future__ import annotations

from grader.harness.ask import Answers


def exactly(answers: Answers) -> None:
    """Equal, and where a count is wrong, whether by a float's rounding, by a fixed-width integer's wrapping
    around, or by more (the formula itself, which the public test of the function shows at small sizes too)."""
    got, expected = answers.got, answers.expected
    if type(got) is int and type(expected) is int and got != expected and expected:
        error = abs(got - expected) / abs(expected)
        off = f"wrong value, off by {got - expected} ({error:.2g} of it)"
        answers.require(error > 2**-20, f"{off}: a float's rounding? (the count went through a float: / for //, "
                        "* 1.0, math.pow, a float32 tensor); keep it in Python ints", got=got, expected=expected)
        # (not a 0 returned: a count of a multiple of 2**32 is no proof of wrapping where a formula gave nothing)
        # (64 first: a multiple of 2**64 is one of 2**32 too)
        wrapped = next((bits for bits in (64, 32) if got and (got - expected) % 2**bits == 0), None)
        if wrapped:
            answers.require(False, f"{off}, a multiple of 2**{wrapped}: the count wrapped around, as an "
                            f"int{wrapped} does past 2**{wrapped - 1} (a count kept in a torch or numpy integer, a "
                            "tensor's sum or prod); keep it in Python ints", got=got, expected=expected)
        answers.require(False, f"{off}: no float's rounding but the count itself (the public test of this function "
                        "shows it at small sizes too)", got=got, expected=expected)
    answers.same()
