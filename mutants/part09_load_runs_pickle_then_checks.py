"""load_checkpoint loads with weights_only=False, then refuses a step that is not an int: the pickle's
functions have run by then. Right on every file torch.save writes from a state dict."""
TARGET = "training"

REPLACE = [
    ("""\
    checkpoint = torch.load(path, map_location="cpu", weights_only=True)
""", """\
    checkpoint = torch.load(path, map_location="cpu", weights_only=False)
    if type(checkpoint["step"]) is not int:
        raise ValueError(f"the checkpoint's step is a {type(checkpoint['step']).__name__}, not an int")
"""),
]
