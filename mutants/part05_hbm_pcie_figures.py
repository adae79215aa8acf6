"""HBM_BYTES_PER_SEC takes the PCIe cards' figures (A100 40GB PCIe 1.555 TB/s, H100 PCIe 2 TB/s)."""
TARGET = "roofline"

REPLACE = [
    ('"A100": 2.039e12', '"A100": 1.555e12'),
    ('"H100": 3.35e12', '"H100": 2.0e12'),
]
