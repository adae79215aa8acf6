"""Linear.forward multiplies by self.weight.data: the right outputs, but no gradient ever reaches the weights."""
TARGET = "model"
REPLACE = [
    ("return x @ self.weight  #", "return x @ self.weight.data  #"),
]
