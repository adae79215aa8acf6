"""autocast_train_step calls backward (and steps) inside the autocast block, where the docstring puts it after:
every gradient and parameter comes out as the reference's on the CPU, and only the autocast state seen as
each gradient reaches a parameter tells."""
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
        if scaler is None:
            loss.backward()
            optimizer.step()
        else:
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()"""),
]
