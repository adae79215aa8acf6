"""promised_flops_per_sec gives any unknown device the H100's peaks, and the table lists vendor words
("NVIDIA", "Tesla", "cpu") as chips, so that every device name seems to hold a chip of its own."""
TARGET = "roofline"

REPLACE = [
    ('    "H200": dict(_HOPPER),\n',
     '    "H200": dict(_HOPPER),\n    "NVIDIA": dict(_HOPPER),\n    "Tesla": dict(_HOPPER),\n'
     '    "cpu": dict(_HOPPER),\n'),
    ('    chips = [chip for chip in PEAK_FLOPS_PER_SEC if chip in tokens]\n'
     '    if len(chips) != 1:\n'
     '        raise ValueError(f"unknown device {device_name!r}; known: {\', \'.join(PEAK_FLOPS_PER_SEC)}")\n'
     '    peaks = PEAK_FLOPS_PER_SEC[chips[0]]\n',
     '    chips = [chip for chip in ("A100", "H100", "H200") if chip in tokens] or ["H100"]\n'
     '    peaks = PEAK_FLOPS_PER_SEC[chips[0]]\n'),
]
