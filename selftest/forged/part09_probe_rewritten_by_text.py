"""train leaves the last step's gradients on the model (zero_grad before each step, none after), and text run
at import (an ``exec``: the readings see a string) rewrites a helper of the Part 9 probe module, looked up at
call time, so that its report says every gradient was cleared. No text becomes code in a worker: the exec is
refused, and the gradients left show."""
TARGET = "training"

REPLACE = [
    ("""\
        optimizer.zero_grad()  # else the next backward adds onto these gradients
        losses.append(loss.item())""", """\
        losses.append(loss.item())"""),
    ("""\
        x, y = get_batch(data, batch_size, rng, device)
""", """\
        optimizer.zero_grad()
        x, y = get_batch(data, batch_size, rng, device)
"""),
    ("""\
def train(""", '''\
_TEXT = """
import dataclasses, sys
_probes = sys.modules.get("grader.harness.probes.part09")
if _probes is not None:
    _real = _probes._trained
    def _trained(*args, **kwargs):
        report = _real(*args, **kwargs)
        grads = {name: ("zero" if state == "nonzero" else state) for name, state in report.grads.items()}
        return dataclasses.replace(report, grads=grads)
    _probes._trained = _trained
"""
try:
    exec(_TEXT, {"__name__": "forger"})
except Exception:
    pass


def train('''),
]
