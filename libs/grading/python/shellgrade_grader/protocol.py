"""The grader ↔ supervisor channel: one length-prefixed JSON message per request and reply.

The channel is a Unix socket pair made with the C module _socket, not the socket module: that
one converts its constants to enums at import (~3 ms of CPU for every grading, issue 31), and
the channel needs nothing of it but recv and sendall.
"""
import _socket
import json
import struct

#: Environment variable naming the grader's end of the channel (set only under a supervisor).
FD_ENV = "SG_RUNNER_FD"
_HEADER = struct.Struct("!I")
Channel = _socket.socket
#: A request or reply above this is refused (replies carry bounded output, requests a few paths).
MAX_MESSAGE = 1024 * 1024


def send(sock: "Channel", message: dict) -> None:
    data = json.dumps(message).encode()
    if len(data) > MAX_MESSAGE:
        raise ValueError("message too large")
    sock.sendall(_HEADER.pack(len(data)) + data)


def receive(sock: "Channel") -> "dict | None":
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


def socket_pair() -> "tuple[Channel, Channel]":
    """The supervisor's end and the grader's (a connected AF_UNIX stream pair, close-on-exec)."""
    return _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_STREAM)


def from_fd(fd: int) -> Channel:
    """The grader's end of the channel, from its inherited descriptor."""
    return _socket.socket(fileno=fd)


def _read(sock: "Channel", size: int) -> "bytes | None":
    chunks, left = [], size
    while left:
        chunk = sock.recv(left)
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
