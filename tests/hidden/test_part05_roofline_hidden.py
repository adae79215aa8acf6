"""Part 5, hidden — promised_flops_per_sec agrees with your own table (assignment/roofline.py).

The public tests ask promised_flops_per_sec only what every correct table holds: the
required dtypes of the A100, H100 and H200, and dtypes the A100 has no peak for. A table
may hold more (float64, float8_e5m2, ...), and the spec says how the lookup must treat
it: a peak for every dtype the chip's entry of your ``PEAK_FLOPS_PER_SEC`` holds,
``ValueError`` for every dtype it does not. So here each of the three chips, under every
name torch gives it, is looked up with each dtype below: where every table must hold the
dtype, the answer must be the datasheet's figure within 0.1% (as publicly); and always,
it is held against your own table, not the reference's: the very peak your table holds
for that chip and dtype (within 0.1%; a figure agrees with itself far closer), or a
ValueError where your table holds none.
"""

import torch

from grader.harness import spec
from grader.harness.ask import ask, fail
from grader.harness.compare import Compare, differs
from grader.harness.probes.part05 import DATASHEET, promised
from grader.harness.schema import FLOAT, STR, Optional, Tuple
from grader.harness.show import show
from tests.strategies import part05 as S
from tests.test_part05_roofline import wrong_figure

PEAKS = spec.constant("roofline.PEAK_FLOPS_PER_SEC", secret=DATASHEET)
ASKED_DTYPES = (torch.float64, torch.float32, torch.bfloat16, torch.float16, torch.float8_e4m3fn,
                torch.float8_e5m2, torch.int8)
PROMISED = Tuple(STR, Optional(FLOAT))
OWN_FIGURE = Compare(rel=DATASHEET.rel)


def test_promised_agrees_with_own_table(impl, oracle):
    table = ask(impl, oracle, PEAKS).got
    if type(table) is not dict:
        fail(PEAKS.name, f"should be a dict keyed by chip name; it is {show(table)}")
    for name, chip in sorted(S.KNOWN_NAMES.items()):
        peaks = table.get(chip) if type(table.get(chip)) is dict else {}  # none: the public table test says so
        for dtype in ASKED_DTYPES:
            answers = ask(impl, oracle, promised, name, dtype, returns=PROMISED)
            answers.check()
            (status, value), (expected_status, expected_value) = answers.got, answers.expected
            if not differs("ok", expected_status):  # a dtype every table must hold: the datasheet's figure, as publicly
                answers.where(0).same()
                answers.where(1).within(rel=DATASHEET.rel, problem=wrong_figure(value, expected_value))
            if dtype in peaks:
                answers.require(status == "ok", f"raised ValueError, but your own {PEAKS.name}[{chip!r}] "
                                f"holds a {dtype} peak: look the dtype up in the chip's table", show_values=False)
                answers.require(not differs(value, peaks[dtype], OWN_FIGURE),
                                f"not the peak your own {PEAKS.name}[{chip!r}][{dtype}] holds",
                                got=value, expected=peaks[dtype], how=OWN_FIGURE.describe())
            else:
                answers.require(status == "ValueError", f"returned a peak, but your own {PEAKS.name}[{chip!r}] has "
                                f"no {dtype} entry: raise ValueError for a dtype the chip's table has no peak for",
                                got=value, show_values=False)
