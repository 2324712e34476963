"""An HTTP server that accepts connections, reads the request and never answers (a hung local
model; the tester's /tmp/try26-files/hung_http.py). Prints ``PORT <n>`` on its first line."""

from __future__ import annotations

import socket
import threading

held: list[socket.socket] = []


def hold(conn: socket.socket) -> None:
    conn.recv(65536)
    held.append(conn)  # kept open, never answered


def main() -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(50)
    print(f"PORT {server.getsockname()[1]}", flush=True)
    while True:
        conn, _ = server.accept()
        threading.Thread(target=hold, args=(conn,), daemon=True).start()


if __name__ == "__main__":
    main()
