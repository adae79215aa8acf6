"""The Part 9 probes' scratch folder: one a process, and no call finds what an earlier one left."""

from __future__ import annotations

import os

from grader.harness.probes.part09 import Scratch


def test_each_call_gets_the_folder_empty_and_the_same_folder():
    first = Scratch.fresh()
    open(os.path.join(first, "checkpoint.pt"), "wb").write(b"left by a call")
    os.makedirs(os.path.join(first, "a", "b"))
    Scratch.kept = object()
    assert Scratch.fresh() == first  # no directory made and removed per call (costly on some disks)
    assert os.listdir(first) == [] and Scratch.kept is None
    open(os.path.join(first, "dataset.npy"), "wb").close()
    Scratch.clear()
    assert os.listdir(first) == []


def test_a_folder_that_is_no_longer_a_plain_folder_is_left_for_a_fresh_one(tmp_path):
    first = Scratch.fresh()
    os.rmdir(first)
    os.symlink(tmp_path, first)  # what a call may do to the folder it was given: never emptied through
    (tmp_path / "kept.txt").write_text("not the probe's")
    second = Scratch.fresh()
    assert second != first and os.listdir(second) == [] and (tmp_path / "kept.txt").exists()
    os.unlink(first)
