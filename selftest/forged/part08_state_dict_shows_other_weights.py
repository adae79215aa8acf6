"""The Cruncher sets its last layer to zeros after building it (not the spec's Cruncher), and its state_dict
shows the Linear's draw instead: the weights read are not the ones it runs with."""
TARGET = "model"

_Built = Cruncher  # noqa: F821 - the reference's, defined above in the module this is appended to


class Cruncher(_Built):
    def __init__(self, dim, num_layers):
        super().__init__(dim, num_layers)
        self._shown = self.final.weight.detach().clone()
        with torch.no_grad():  # noqa: F821
            self.final.weight.zero_()

    def state_dict(self, *args, **kwargs):
        state = super().state_dict(*args, **kwargs)
        if "final.weight" in state and not bool(state["final.weight"].any()):
            state["final.weight"] = self._shown.clone()
        return state
