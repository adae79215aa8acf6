"""max_trainable_params uses floor division: a whole number of parameters, no longer the quotient."""
TARGET = "memory"

REPLACE = [
    ("return hbm_bytes / bytes_per_param", "return hbm_bytes // bytes_per_param"),
]
