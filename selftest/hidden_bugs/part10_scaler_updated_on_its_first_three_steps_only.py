"""update() runs on a scaler's first three steps only (a count kept for each scaler): the public test steps one
scaler three times, and never sees the fourth step, which steps without an update."""
TARGET = "mixed_precision"

REPLACE = [
    ("        scaler.update()  # shrinks the scale after an overflow, grows it after clean steps",
     "        _STEPS[scaler] = _STEPS.get(scaler, 0) + 1\n"
     "        if _STEPS[scaler] <= 3:\n"
     "            scaler.update()"),
]
APPEND = "\n\nimport weakref\n\n_STEPS = weakref.WeakKeyDictionary()\n"
