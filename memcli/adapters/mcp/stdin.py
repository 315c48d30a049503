"""Standard input's lines for the MCP stdio transport, read so that stopping never waits.

The SDK reads standard input through ``anyio.wrap_file``: a worker thread blocked
in a read, which a stopping server waits for until the client writes or closes
its end. An agent ending a session sends SIGINT with that end still open (Claude
Code, then SIGTERM about 100 ms later). Here a daemon thread reads the file
descriptor and hands each line over a memory stream: a cancelled server waits
for nothing, and the thread ends with the process.
"""

from __future__ import annotations

import os
import threading
from collections.abc import AsyncIterator

import anyio
import anyio.from_thread
from anyio.lowlevel import EventLoopToken, current_token
from anyio.streams.memory import MemoryObjectSendStream

CHUNK = 64 * 1024


class StdinLines:
    """The lines of file descriptor ``fd`` (each with its newline), decoded as UTF-8.

    Iterated once, as the SDK's stdio transport iterates standard input.
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd

    async def __aiter__(self) -> AsyncIterator[str]:
        send, receive = anyio.create_memory_object_stream[str](0)
        reader = threading.Thread(
            target=_read_lines,
            args=(self.fd, send, current_token()),
            name="mem mcp stdin",
            daemon=True,  # blocked in a read at exit: never waited for
        )
        reader.start()
        async with receive:
            async for line in receive:
                yield line


def _read_lines(fd: int, send: MemoryObjectSendStream[str], token: EventLoopToken) -> None:
    """Hand each line of ``fd`` to ``send`` until its end, or until nobody receives."""
    pending = bytearray()
    try:
        while chunk := os.read(fd, CHUNK):
            pending += chunk
            start = 0
            while (end := pending.find(b"\n", start)) >= 0:
                line = pending[start : end + 1].decode("utf-8", "replace")
                anyio.from_thread.run(send.send, line, token=token)
                start = end + 1
            del pending[:start]
        if pending:
            anyio.from_thread.run(send.send, pending.decode("utf-8", "replace"), token=token)
    except Exception:  # the descriptor failed, or the server stopped (its loop may be gone)
        pass  # nobody reads this thread's errors: the server sees the end of its input
    finally:
        try:
            anyio.from_thread.run_sync(send.close, token=token)
        except Exception:  # the loop is gone: nothing is left to tell
            pass
