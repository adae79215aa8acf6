"""The checkpoint saves the optimizer's param_groups but not its per-parameter state (moments, step)."""
TARGET = "training"

REPLACE = [
    ('"optimizer": optimizer.state_dict()',
     '"optimizer": {"state": {}, "param_groups": optimizer.state_dict()["param_groups"]}'),
]
