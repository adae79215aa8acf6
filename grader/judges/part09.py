"""Judges of Part 9: the checkpoint whose pickle calls code, built in a clean worker.

Nothing secret: the code is ``coded_checkpoint``, which the handout's tests run
themselves. Graded, it runs where no submission ran and torch's optimizers are
already warm, instead of in the grading process.
"""

from __future__ import annotations

from grader.harness.probes.part09 import coded_checkpoint, coded_checkpoint_made

coded_checkpoint_made.implement(coded_checkpoint)
