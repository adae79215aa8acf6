"""save_checkpoint stores the optimizer's own step count, not the step it is given: right only when the
run was never resumed."""
TARGET = "training"

REPLACE = [
    ('''    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step}, path)''',
     '''    counts = [int(s["step"]) for s in optimizer.state_dict()["state"].values() if "step" in s]
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "step": max(counts) if counts else step}, path)'''),
]
