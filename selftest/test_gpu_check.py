"""``make gpu-check`` on a machine without a GPU: it must get as far as asking for one.

The script runs only where a GPU is, which CI has not: an import it lost in a refactor
would go unnoticed until the one run on a GPU machine. Here it imports everything it
uses, then says there is no device and exits 2.
"""

import subprocess
import sys
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(torch.cuda.is_available(), reason="a GPU is here: the script would run its checks")
def test_gpu_check_imports_and_says_there_is_no_gpu():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "gpu_check.py")], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "no CUDA device" in done.stdout
