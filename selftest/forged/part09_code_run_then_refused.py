"""load_checkpoint loads with weights_only=False, so a checkpoint's pickle runs, and then raises the
UnpicklingError weights_only would have raised when what it loaded looks odd: a refusal, after the fact."""
TARGET = "training"

REPLACE = [
    ("""\
    checkpoint = torch.load(path, map_location="cpu", weights_only=True)
""", """\
    checkpoint = torch.load(path, map_location="cpu", weights_only=False)
    if type(checkpoint.get("step")) is not int:
        import pickle
        raise pickle.UnpicklingError("Weights only load failed")
"""),
]
