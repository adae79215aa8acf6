"""Length-prefixed messages: 4 bytes big-endian length, then that many bytes."""

from __future__ import annotations

import socket
import struct

MAX_MESSAGE = 64 * 2**20
_HEADER = struct.Struct(">I")


class ChannelClosed(ConnectionError):
    """The other end closed the connection (or died)."""


class MessageTooLarge(ValueError):
    pass


def send(sock: socket.socket, payload: bytes) -> None:
    if len(payload) > MAX_MESSAGE:
        raise MessageTooLarge(f"message of {len(payload)} bytes exceeds {MAX_MESSAGE}")
    sock.sendall(_HEADER.pack(len(payload)) + payload)


def recv(sock: socket.socket) -> bytes:
    (length,) = _HEADER.unpack(_exactly(sock, _HEADER.size))
    if length > MAX_MESSAGE:
        raise MessageTooLarge(f"message of {length} bytes exceeds {MAX_MESSAGE}")
    return _exactly(sock, length)


def _exactly(sock: socket.socket, n: int) -> bytes:
    chunks, got = [], 0
    while got < n:
        chunk = sock.recv(min(n - got, 1 << 20))
        if not chunk:
            raise ChannelClosed("connection closed")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def length(header: bytes) -> int:
    """The length a 4-byte header announces (refusing more than ``MAX_MESSAGE``)."""
    (size,) = _HEADER.unpack(header)
    if size > MAX_MESSAGE:
        raise MessageTooLarge(f"message of {size} bytes exceeds {MAX_MESSAGE}")
    return size
