"""Direct replay: run a graded test over a batch's recorded examples without hypothesis's engine.

A grading batch records one run of the graded tests against the reference under
its own seed and profile (``batch.record_reference``): every example each test
drew, and every answer the reference gave. Each submission is then graded on
exactly those examples. Driving them through hypothesis again would redo its
bookkeeping (about a millisecond per example, most of the grading time for a
fast submission), so this plugin calls the test body itself:

* the test's explicit ``@example``s first, then the recorded examples, simplest
  first (shortest encoding): the first failure raised is the simplest recorded
  failing input, which is what shrinking over recorded cases would reach;
* a test whose arguments are not all ``cases(...)``, or that has no recorded
  examples (cuda tests on a CPU recording), runs through hypothesis as usual.

It is only ever loaded by the grader (``session.py``), never in students' runs.
"""

from __future__ import annotations

import inspect

import pytest

from grader.harness import oracle as oracle_mod
from grader.harness import wire


class DirectReplay:
    def __init__(self, recordings: oracle_mod.Recordings) -> None:
        self.recordings = recordings
        self.replayed: list[str] = []

    @pytest.hookimpl(tryfirst=True)
    def pytest_pyfunc_call(self, pyfuncitem: pytest.Function):
        handle = getattr(pyfuncitem.obj, "hypothesis", None)
        if handle is None:
            return None
        examples = self.recordings.examples.get(oracle_mod.MODE.test)
        given = getattr(handle, "_given_kwargs", None)
        if not examples or not given:
            return None
        names = {param: getattr(strategy, "case_name", None) for param, strategy in given.items()}
        if None in names.values() or len(set(names.values())) != len(names):
            return None
        if any(set(example) != set(names.values()) for example in examples):
            return None
        explicit = getattr(pyfuncitem.obj, "hypothesis_explicit_examples", ())
        if any(example.args for example in explicit):
            return None
        inner = handle.inner_test
        fixtures = {name: pyfuncitem.funcargs[name] for name in inspect.signature(inner).parameters
                    if name not in given and name in pyfuncitem.funcargs}
        for example in reversed(explicit):  # in the order they are written, as hypothesis does
            inner(**fixtures, **example.kwargs)
        ordered = sorted(examples, key=lambda e: (sum(len(v) for v in e.values()), sorted(e.items())))
        seen: set[tuple] = set()
        for example in ordered:
            key = tuple(sorted(example.items()))
            if key in seen:
                continue
            seen.add(key)
            inner(**fixtures, **{param: wire.decode(example[case]) for param, case in names.items()})
        self.replayed.append(pyfuncitem.nodeid)
        return True
