"""load_checkpoint loads with weights_only=False (what students reach for when a load fails): a
checkpoint that calls any function runs it. Right on every file torch.save writes from a state dict."""
TARGET = "training"

REPLACE = [
    ("weights_only=True", "weights_only=False"),
]
