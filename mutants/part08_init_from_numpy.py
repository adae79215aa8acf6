"""Linear's weights are a truncated normal drawn with numpy's global generator: the right distribution,
but torch.manual_seed does not decide them."""
TARGET = "model"

REPLACE = [
    ("        nn.init.trunc_normal_(self.weight, mean=0.0, std=std, a=-3 * std, b=3 * std)",
     """        import numpy as np
        draws = np.random.standard_normal((input_dim, output_dim))
        while (np.abs(draws) > 3).any():
            beyond = np.abs(draws) > 3
            draws[beyond] = np.random.standard_normal(int(beyond.sum()))
        with torch.no_grad():
            self.weight.copy_(torch.from_numpy(draws * std))"""),
]
