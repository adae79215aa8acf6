"""get_batch serves the CPU alone, and says any other device is not implemented: a NotImplementedError of its
own, raised by its own statement (torch's, raised inside a call, is excused)."""
TARGET = "training"

REPLACE = [
    ("    return x.to(device), y.to(device)",
     "    if str(device) != \"cpu\":\n"
     "        raise NotImplementedError(\"only the CPU is supported: I have no GPU to test on\")\n"
     "    return x, y"),
]
