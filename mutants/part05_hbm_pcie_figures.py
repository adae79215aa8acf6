"""HBM_BYTES_PER_SEC takes the PCIe cards' figures (A100 40GB PCIe 1.555 TB/s, H100 PCIe 2 TB/s)."""
TARGET = "roofline"

HBM_BYTES_PER_SEC = {"A100": 1.555e12, "H100": 2.0e12, "H200": 4.8e12}
