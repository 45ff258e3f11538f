"""The grader ↔ supervisor channel: one length-prefixed JSON message per request and reply."""
import json
import socket
import struct

#: Environment variable naming the grader's end of the channel (set only under a supervisor).
FD_ENV = "SG_RUNNER_FD"
_HEADER = struct.Struct("!I")
#: A request or reply above this is refused (replies carry bounded output, requests a few paths).
MAX_MESSAGE = 1024 * 1024


def send(sock: socket.socket, message: dict) -> None:
    data = json.dumps(message).encode()
    if len(data) > MAX_MESSAGE:
        raise ValueError("message too large")
    sock.sendall(_HEADER.pack(len(data)) + data)


def receive(sock: socket.socket) -> "dict | None":
    """The next message, or None at end of file."""
    header = _read(sock, _HEADER.size)
    if header is None:
        return None
    (size,) = _HEADER.unpack(header)
    if size > MAX_MESSAGE:
        raise ValueError("message too large")
    body = _read(sock, size)
    if body is None:
        return None
    return json.loads(body)


def _read(sock: socket.socket, size: int) -> "bytes | None":
    chunks, left = [], size
    while left:
        chunk = sock.recv(left)
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
