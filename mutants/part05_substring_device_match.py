"""promised_flops_per_sec matches chips as substrings: "NVIDIA GH200 480GB" is taken for an H200."""
TARGET = "roofline"

REPLACE = [
    ("if chip in tokens]", "if chip in device_name]"),
]
