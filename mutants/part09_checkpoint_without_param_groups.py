"""The checkpoint keeps the optimizer's per-parameter state but not its param_groups (lr, betas, weight
decay); the loader takes them from the fresh optimizer: a run whose learning rate was lowered resumes
with the fresh one's."""
TARGET = "training"

REPLACE = [
    ('"optimizer": optimizer.state_dict()', '"optimizer": {"state": optimizer.state_dict()["state"]}'),
    ("""\
    optimizer.load_state_dict(checkpoint["optimizer"])
""", """\
    optimizer.load_state_dict({**optimizer.state_dict(), "state": checkpoint["optimizer"]["state"]})
"""),
]
