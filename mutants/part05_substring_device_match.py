"""promised_flops_per_sec matches chips as substrings: "NVIDIA GH200 480GB" is taken for an H200."""
TARGET = "roofline"


def promised_flops_per_sec(device_name, dtype):
    for chip, peaks in PEAK_FLOPS_PER_SEC.items():
        if chip in device_name:
            if dtype not in peaks:
                raise ValueError(f"no {dtype} peak for the {chip}")
            return peaks[dtype]
    raise ValueError(f"unknown device {device_name!r}")
