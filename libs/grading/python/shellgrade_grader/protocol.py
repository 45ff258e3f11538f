"""The grader ↔ student supervisor channel: one length-prefixed message per request and reply.

The supervisor is C (native/student-supervisor.c), so the messages are flat bytes, not JSON:
  request: script \\0 cwd \\0 timeout_ms \\0 use_shebang (0|1) \\0 nargs \\0 arg_1 \\0 ... arg_n \\0 stdin
  reply:   has_returncode (1 byte) returncode (int32) timed_out (1 byte) stdout_len stderr_len
           (uint32 each) stdout stderr
all integers big-endian. The channel is a Unix socket pair made with the C module _socket, not the
socket module: that one converts its constants to enums at import (~3 ms of CPU for every
grading), and the channel needs nothing of it but recv and sendall.
"""
import _socket
import os
import struct

#: Environment variable naming the grader's end of the channel (set only under a supervisor).
FD_ENV = "SG_RUNNER_FD"
_HEADER = struct.Struct("!I")
#: The fixed head of a reply, before its stdout and stderr bytes (student-supervisor.c writes it).
REPLY_HEAD = struct.Struct("!BiBII")
Channel = _socket.socket
#: A request or reply above this is refused (replies carry bounded output, requests a few paths).
MAX_MESSAGE = 1024 * 1024


def encode_request(script: str, args: "list[str]", cwd: "str | None", timeout: float, stdin: str, use_shebang: bool) -> bytes:
    """The request's bytes; ValueError when a field cannot be sent (a NUL inside a path or an argument)."""
    fields = [script, cwd or "", str(int(float(timeout) * 1000)), "1" if use_shebang else "0", str(len(args)), *args]
    encoded = [os.fsencode(f) for f in fields]
    if any(b"\0" in f for f in encoded):
        raise ValueError("embedded null byte")
    return b"".join(f + b"\0" for f in encoded) + stdin.encode()


def decode_reply(data: bytes) -> "tuple[int | None, str, str, bool]":
    """(returncode, stdout, stderr, timed_out) of a reply."""
    has_returncode, returncode, timed_out, out_len, err_len = REPLY_HEAD.unpack_from(data)
    out = data[REPLY_HEAD.size:REPLY_HEAD.size + out_len]
    err = data[REPLY_HEAD.size + out_len:REPLY_HEAD.size + out_len + err_len]
    return (returncode if has_returncode else None, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), bool(timed_out))


def send(sock: "Channel", data: bytes) -> None:
    if len(data) > MAX_MESSAGE:
        raise ValueError("message too large")
    sock.sendall(_HEADER.pack(len(data)) + data)


def receive(sock: "Channel") -> "bytes | None":
    """The next message, or None at end of file."""
    header = _read(sock, _HEADER.size)
    if header is None:
        return None
    (size,) = _HEADER.unpack(header)
    if size > MAX_MESSAGE:
        raise ValueError("message too large")
    return _read(sock, size)


def socket_pair() -> "tuple[Channel, Channel]":
    """Two connected ends of an AF_UNIX stream pair, close-on-exec."""
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
