"""promised_flops_per_sec takes a word that begins with a chip's name for that chip ("A1000" for the A100)."""
TARGET = "roofline"

REPLACE = [
    ("    chips = [chip for chip in PEAK_FLOPS_PER_SEC if chip in tokens]",
     "    chips = [chip for chip in PEAK_FLOPS_PER_SEC if any(t.startswith(chip) for t in tokens)]"),
]
