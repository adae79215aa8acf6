"""Linear stores weight as (output_dim, input_dim), nn.Linear's layout, and computes x @ weight.T."""
TARGET = "model"

REPLACE = [
    ("torch.empty(input_dim, output_dim)", "torch.empty(output_dim, input_dim)"),
    ("return x @ self.weight", "return x @ self.weight.T"),
]
