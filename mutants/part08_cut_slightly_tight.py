"""Linear cuts its normal at ±2.9 std instead of ±3: the spread is 0.4% low (within the std's bounds) and
the largest weight still near the cut, but no weight lies between 2.9 and 3 std."""
TARGET = "model"

REPLACE = [
    ("nn.init.trunc_normal_(self.weight, mean=0.0, std=std, a=-3 * std, b=3 * std)",
     "nn.init.trunc_normal_(self.weight, mean=0.0, std=std, a=-2.9 * std, b=2.9 * std)"),
]
