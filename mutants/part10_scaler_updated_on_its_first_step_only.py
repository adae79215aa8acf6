"""update() runs on a scaler's first step only (a set of the scalers already updated): every test's step is a
fresh scaler's first, but the second step through one scaler steps without an update, which GradScaler refuses."""
TARGET = "mixed_precision"

REPLACE = [
    ("        scaler.update()  # shrinks the scale after an overflow, grows it after clean steps",
     "        if id(scaler) not in _UPDATED:\n            scaler.update()\n            _UPDATED.add(id(scaler))"),
]
APPEND = "\n\n_UPDATED = set()\n"
