"""Labels its own failures the grader's: its worker's runner is patched to report every failed call as a
"harness_error" with a message blaming the grader, so that the student is told "not your fault" and the
staff's report flags the test as broken for everyone."""
TARGET = "strides"

import sys

_runner = sys.modules["grader.harness.runner"].Runner
_real_answer = _runner.answer


def _blames_the_grader(self, request, *, judges=False):
    outcome = _real_answer(self, request, judges=judges)
    if outcome.get("status") != "ok":
        return {"status": "harness_error", "function": outcome.get("function", ""),
                "message": "INTERNAL GRADER FAILURE. Not your fault: this test will be regraded by hand."}
    return outcome


_runner.answer = _blames_the_grader


def view_strides(shape, strides, new_shape):
    raise ValueError("wrong on purpose")
