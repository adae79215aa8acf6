"""Staff check: how pytest's reports become outcomes (``grader.outcomes.Collector``).

A skip is pending only for a test marked ``cuda``: a GPU pass grades it later and merges it in (so is
one the run's own selection left out, ``-m "not cuda"``). Any
other skip (a ``skipif`` on what the grading machine's torch lacks, say) is a test that never ran,
which nothing grades later: it scores 0 as "did not run", its points kept in the maximum.
"""

from __future__ import annotations

import textwrap

import pytest

from grader.outcomes import DID_NOT_RUN, FAILED, PASSED, PENDING, Collector

TESTS = """
import pytest

def test_runs():
    pass

@pytest.mark.skipif(True, reason="this torch has no float16 autocast on the CPU")
def test_skipped_where_it_cannot_run():
    pass

@pytest.mark.cuda
def test_on_a_gpu():
    pytest.skip("needs a CUDA device")
"""


def test_only_a_cuda_test_s_skip_is_pending(tmp_path):
    (tmp_path / "test_some.py").write_text(textwrap.dedent(TESTS))
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    cuda: needs a GPU\n")
    collector = Collector()
    assert pytest.main([str(tmp_path), "-q", "-p", "no:cacheprovider", "-p", "no:hypothesispytest"],
                       plugins=[collector]) == 0
    got = {test.rsplit("::", 1)[-1]: outcome for test, outcome in collector.outcomes.items()}
    assert got["test_runs"].status == PASSED
    assert got["test_on_a_gpu"].status == PENDING
    skipped = got["test_skipped_where_it_cannot_run"]
    assert (skipped.status, skipped.kind) == (FAILED, DID_NOT_RUN)
    assert "no float16 autocast" in skipped.message


def test_a_cuda_test_left_out_by_the_selection_is_pending_and_any_other_did_not_run(tmp_path):
    (tmp_path / "test_selected.py").write_text(textwrap.dedent(TESTS))  # not test_some: one process imports both
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    cuda: needs a GPU\n")
    collector = Collector()
    assert pytest.main([str(tmp_path), "-q", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-m", "not cuda",
                        "-k", "not skipped"], plugins=[collector]) == 0
    got = {test.rsplit("::", 1)[-1]: outcome for test, outcome in collector.outcomes.items()}
    assert got["test_runs"].status == PASSED
    assert got["test_on_a_gpu"].status == PENDING and "GPU pass" in got["test_on_a_gpu"].message
    left_out = got["test_skipped_where_it_cannot_run"]
    assert (left_out.status, left_out.kind) == (FAILED, DID_NOT_RUN) and "not selected" in left_out.message
