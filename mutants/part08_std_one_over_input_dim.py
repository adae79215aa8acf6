"""Linear's std is 1/input_dim instead of 1/sqrt(input_dim): outputs shrink like 1/sqrt(input_dim)."""
TARGET = "model"


class Linear(nn.Module):
    def __init__(self, input_dim, output_dim):
        super().__init__()
        std = 1 / input_dim
        self.weight = nn.Parameter(torch.empty(input_dim, output_dim))
        nn.init.trunc_normal_(self.weight, std=std, a=-3 * std, b=3 * std)

    def forward(self, x):
        return x @ self.weight
