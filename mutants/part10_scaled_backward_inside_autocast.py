"""autocast_train_step puts backward after the autocast block without a scaler, and inside it with one (the
scaled backward, step and update indented under the with): right values on the CPU, the docstring's step 2
broken in that branch alone."""
TARGET = "mixed_precision"

REPLACE = [
    ("""        loss = F.mse_loss(pred.float(), y.float())  # () float32
    # backward runs outside autocast: each op's backward reuses the dtype its forward ran in
    if scaler is None:
        loss.backward()
        optimizer.step()
    else:
        scaler.scale(loss).backward()  # loss * scale: small float16 gradients stay above 2**-24
        scaler.step(optimizer)  # unscales the gradients; skips the step if any is inf or NaN
        scaler.update()  # shrinks the scale after an overflow, grows it after clean steps""",
     """        loss = F.mse_loss(pred.float(), y.float())  # () float32
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
    if scaler is None:
        loss.backward()
        optimizer.step()"""),
]
