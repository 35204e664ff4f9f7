#!/usr/bin/env python3
"""A TCP proxy on loopback that makes a remote "go away" in the middle of a transfer.

Usage: cutting_proxy.py LISTEN_PORT TARGET_PORT CUT_AFTER_BYTES

Forwards every connection to 127.0.0.1:TARGET_PORT. The first connection that sends more
than CUT_AFTER_BYTES towards the target is reset in the middle of its upload, and from then
on every new connection is reset at once (the server is "away") until the proxy receives
SIGUSR1. Prints "ready" when it listens. Used by the offload tests only.
"""
import signal
import socket
import struct
import sys
import threading

listen_port, target_port, cut_after = (int(a) for a in sys.argv[1:4])
state = {"cut": False, "away": False}
lock = threading.Lock()


def come_back(*_):
    with lock:
        state["away"] = False


signal.signal(signal.SIGUSR1, come_back)
# A child inherits its parent's blocked signals (Foundation's Process passes them on).
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR1})


def reset(sock):
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()
    except OSError:
        pass


def pump(src, dst, upstream, sent):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            if upstream:
                sent[0] += len(data)
                with lock:
                    if not state["cut"] and sent[0] > cut_after:
                        state["cut"] = True
                        state["away"] = True
                        raise ConnectionResetError("cut mid-transfer")
            dst.sendall(data)
    except OSError:
        pass
    finally:
        reset(src)
        reset(dst)


server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", listen_port))
server.listen(64)
print("ready", flush=True)
while True:
    client, _ = server.accept()
    with lock:
        away = state["away"]
    if away:
        reset(client)
        continue
    try:
        upstream = socket.create_connection(("127.0.0.1", target_port))
    except OSError:
        reset(client)
        continue
    sent = [0]
    threading.Thread(target=pump, args=(client, upstream, True, sent), daemon=True).start()
    threading.Thread(target=pump, args=(upstream, client, False, sent), daemon=True).start()
