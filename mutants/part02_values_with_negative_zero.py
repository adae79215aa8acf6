"""nvfp4_values decodes all 16 codes and keeps both +0 and -0."""
TARGET = "dtypes"


def nvfp4_values():
    magnitudes = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]
    return sorted([-v for v in magnitudes] + magnitudes)
