"""Linear stores weight as (output_dim, input_dim), nn.Linear's layout, and computes x @ weight.T."""
TARGET = "model"


class Linear(nn.Module):
    def __init__(self, input_dim, output_dim):
        super().__init__()
        std = 1 / math.sqrt(input_dim)
        self.weight = nn.Parameter(torch.empty(output_dim, input_dim))
        nn.init.trunc_normal_(self.weight, std=std, a=-3 * std, b=3 * std)

    def forward(self, x):
        return x @ self.weight.T
