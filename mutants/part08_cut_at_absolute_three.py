"""Linear copies the lecture's trunc_normal_(w, std=1/sqrt(input_dim), a=-3, b=3): a and b are absolute, so nothing is cut."""
TARGET = "model"


class Linear(nn.Module):
    def __init__(self, input_dim, output_dim):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(input_dim, output_dim))
        nn.init.trunc_normal_(self.weight, std=1 / math.sqrt(input_dim), a=-3, b=3)

    def forward(self, x):
        return x @ self.weight
