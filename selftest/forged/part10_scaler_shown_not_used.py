"""In bfloat16 the step ignores the GradScaler it is given, but shows it used: the loss handed to
scaler.scale() and the result thrown away, the scale set by hand to what a clean update gives."""
TARGET = "mixed_precision"

REPLACE = [
    ("""\
    if scaler is None:
        loss.backward()
        optimizer.step()
""", """\
    if scaler is None or dtype == torch.bfloat16:
        loss.backward()
        optimizer.step()
        if scaler is not None:
            scaler.scale(loss)
            scaler.update(scaler.get_scale() * 2.0)
"""),
]
