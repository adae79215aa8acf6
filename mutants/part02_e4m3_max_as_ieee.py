"""format_limits treats "nan_only" like "ieee": the all-ones exponent is lost (e4m3fn max 240, not 448)."""
TARGET = "dtypes"


def format_limits(fmt):
    e, m = fmt.exponent_bits, fmt.mantissa_bits
    bias = 2 ** (e - 1) - 1
    top = 2**e - 1 if fmt.special == "none" else 2**e - 2
    return FormatLimits(
        max=(2 - 2.0**-m) * 2.0 ** (top - bias),
        smallest_normal=2.0 ** (1 - bias),
        smallest_subnormal=2.0 ** (1 - bias - m),
        eps=2.0**-m,
    )
