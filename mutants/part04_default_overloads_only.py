"""The counter looks ops up by their exact overload (aten.mm.default ...) instead of the overload
packet: mm into a given tensor (torch.mm(a, b, out=c), aten.mm.out) counts nothing."""
TARGET = "flops"

REPLACE = [
    ("        formula = _FORMULAS.get(func.overloadpacket)\n",
     "        defaults = {packet.default: formula for packet, formula in _FORMULAS.items()}\n"
     "        formula = defaults.get(func)\n"),
]
