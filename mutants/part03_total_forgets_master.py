"""MemoryLedger.total adds up every line except master_parameters."""
TARGET = "memory"


def _total_without_master(self):
    return self.parameters + self.gradients + self.optimizer_state + self.activations


MemoryLedger.total = property(_total_without_master)
