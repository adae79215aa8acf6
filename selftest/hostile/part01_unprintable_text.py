"""Writes what no output file or terminal should take raw: a lone UTF-16 surrogate (no UTF-8 file can
hold one: a report written with it fails) and terminal control sequences (a staff member reading the
logs in a terminal would have them run), in its exception messages and in what it prints."""
TARGET = "strides"

import sys

_NASTY = "\ud800 \x1b]0;pwned\x07\x1b[2J\x1b[8mhidden\x1b[0m \u202egnp.exe"


def view_strides(shape, strides, new_shape):
    sys.stdout.buffer.write(b"printed: \x1b[2J\x1b]0;title\x07 \xed\xa0\x80\n")
    sys.stdout.flush()
    raise ValueError(_NASTY)
