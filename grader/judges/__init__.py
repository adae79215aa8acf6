"""Staff-only: the trusted side's code for the judges declared in ``grader/harness/probes``.

Not in the handout: some of it is most of a solution (an NVFP4 grid, a matmul
timer). Importing this package gives every judge its code; the grader's plugin
does so in the grading process, and a clean worker does in its own process.
"""

from grader.judges import devices, part02, part03, part05, part09  # noqa: F401 - registers the judges
