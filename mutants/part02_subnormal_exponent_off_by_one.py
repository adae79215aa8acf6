"""format_limits scales subnormals by 2^-bias instead of 2^(1-bias): smallest_subnormal is halved."""
TARGET = "dtypes"

_reference_format_limits = format_limits


def format_limits(fmt):
    limits = _reference_format_limits(fmt)
    return FormatLimits(limits.max, limits.smallest_normal, limits.smallest_subnormal / 2, limits.eps)
