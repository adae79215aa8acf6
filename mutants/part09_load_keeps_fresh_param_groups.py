"""The checkpoint is whole, but the loader takes only the per-parameter state from it and keeps the fresh
optimizer's param_groups: a run whose learning rate was lowered resumes with the fresh one's."""
TARGET = "training"

REPLACE = [
    ("""\
    optimizer.load_state_dict(checkpoint["optimizer"])
""", """\
    optimizer.load_state_dict({**optimizer.state_dict(), "state": checkpoint["optimizer"]["state"]})
"""),
]
