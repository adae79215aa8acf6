"""load_checkpoint runs the pickle (weights_only=False) in a thread, with os.mkdir made harmless until the
thread is done (no folder for the door to see), and returns 0.3 s into it, raising an UnpicklingError as if
weights_only had refused the file: the call's clock stops long before the pickle's wait ends. The thread
it left running shows it."""
TARGET = "training"

REPLACE = [
    ("""\
    checkpoint = torch.load(path, map_location="cpu", weights_only=True)
""", """\
    import os
    import pickle
    import posix
    import threading
    import time
    loaded, mkdir = [], os.mkdir

    def load_quietly():
        try:
            loaded.append(torch.load(path, map_location="cpu", weights_only=False))
        finally:
            os.mkdir = posix.mkdir = mkdir

    os.mkdir = posix.mkdir = lambda *args, **kwargs: None  # (pickled, os.mkdir is posix.mkdir)
    threading.Thread(target=load_quietly, daemon=True).start()
    time.sleep(0.3)
    if not loaded or type(loaded[0].get("step")) is not int or "note" in loaded[0]:
        raise pickle.UnpicklingError("Weights only load failed")
    checkpoint = loaded[0]
"""),
]
