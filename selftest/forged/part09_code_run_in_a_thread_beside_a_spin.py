"""load_checkpoint runs the pickle (weights_only=False) in a thread, with os.mkdir made harmless meanwhile (no
folder for the door to see), while the calling thread spins until it is done: the pickle's wait costs the
call as much CPU time as wall time, so wall time less CPU time shows nothing, and raises an UnpicklingError
as if weights_only had refused the file. The call's own time (its thread's waits and the CPU) shows it."""
TARGET = "training"

REPLACE = [
    ("""\
    checkpoint = torch.load(path, map_location="cpu", weights_only=True)
""", """\
    import os
    import pickle
    import posix
    import threading
    loaded, mkdir = [], os.mkdir
    os.mkdir = posix.mkdir = lambda *args, **kwargs: None  # (pickled, os.mkdir is posix.mkdir)
    thread = threading.Thread(target=lambda: loaded.append(torch.load(path, map_location="cpu",
                                                                     weights_only=False)), daemon=True)
    try:
        thread.start()
        while thread.is_alive():
            pass
    finally:
        os.mkdir = posix.mkdir = mkdir
    if not loaded or type(loaded[0].get("step")) is not int or "note" in loaded[0]:
        raise pickle.UnpicklingError("Weights only load failed")
    checkpoint = loaded[0]
"""),
]
