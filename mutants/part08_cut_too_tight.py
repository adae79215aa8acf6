"""Linear cuts the normal at ±2 std instead of ±3: too tight, the weights come out too small."""
TARGET = "model"


class Linear(nn.Module):
    def __init__(self, input_dim, output_dim):
        super().__init__()
        std = 1 / math.sqrt(input_dim)
        self.weight = nn.Parameter(torch.empty(input_dim, output_dim))
        nn.init.trunc_normal_(self.weight, std=std, a=-2 * std, b=2 * std)

    def forward(self, x):
        return x @ self.weight
