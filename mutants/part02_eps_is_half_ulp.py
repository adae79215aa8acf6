"""format_limits gives the unit roundoff 2^-(m+1) as eps, not the gap 2^-m above 1.0."""
TARGET = "dtypes"

_reference_format_limits = format_limits


def format_limits(fmt):
    limits = _reference_format_limits(fmt)
    return FormatLimits(limits.max, limits.smallest_normal, limits.smallest_subnormal,
                        2.0 ** -(fmt.mantissa_bits + 1))
