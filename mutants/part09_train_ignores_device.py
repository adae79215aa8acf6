"""train never passes its device on: get_batch puts every batch on the CPU, whatever device train is given."""
TARGET = "training"

REPLACE = [
    ("        x, y = get_batch(data, batch_size, rng, device)", "        x, y = get_batch(data, batch_size, rng)"),
]
