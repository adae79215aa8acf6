"""count_matmul_flops calls fn() again after counting it (to see that it still runs) and swallows the error
that second call raises: the count is right, but fn() is called once (its work would be done twice)."""
TARGET = "flops"
REPLACE = [
    ("    counter = _MatmulCounter()\n    with counter:\n        fn()\n",
     "    counter = _MatmulCounter()\n    with counter:\n        fn()\n    try:\n        fn()\n"
     "    except RuntimeError:\n        pass\n"),
]
