"""load_checkpoint restores a file only under a key its own save_checkpoint adds beside the documented
three ("format": 2); any other file in the documented layout comes back as its step, nothing restored."""
TARGET = "training"

REPLACE = [
    ("""\
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step}, path)
""", """\
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step, "format": 2}, path)
"""),
    ("""\
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
""", """\
    if checkpoint.get("format") == 2:
        model.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
"""),
]
