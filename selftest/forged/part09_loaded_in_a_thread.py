"""load_checkpoint runs the pickle (weights_only=False) in a thread and waits for it 0.3 s at most: a
pickle that waits is "refused" with an UnpicklingError while it goes on in the thread, outside the
call's time. What it made (a folder) is there after the call all the same."""
TARGET = "training"

REPLACE = [
    ("""\
    checkpoint = torch.load(path, map_location="cpu", weights_only=True)
""", """\
    import pickle
    import threading
    loaded = []
    thread = threading.Thread(target=lambda: loaded.append(torch.load(path, map_location="cpu",
                                                                     weights_only=False)), daemon=True)
    thread.start()
    thread.join(0.3)
    if not loaded or type(loaded[0].get("step")) is not int:
        raise pickle.UnpicklingError("Weights only load failed")
    checkpoint = loaded[0]
"""),
]
