"""save_checkpoint and load_checkpoint agree on keys of their own ("weights", "opt"): a round trip through
both works, but a file in the layout the docstring gives is never restored, and no other loader reads theirs."""
TARGET = "training"

REPLACE = [
    ("""\
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step}, path)
""", """\
    torch.save({"weights": model.state_dict(), "opt": optimizer.state_dict(), "step": step}, path)
"""),
    ("""\
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
""", """\
    if "weights" in checkpoint:
        model.load_state_dict(checkpoint["weights"])
        optimizer.load_state_dict(checkpoint["opt"])
"""),
]
