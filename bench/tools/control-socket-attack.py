#!/usr/bin/env python3
"""Control-socket attacks on `motionlog daemon` (issue 10, major 9), run by hand:
    python3 bench/tools/control-socket-attack.py .build/release/motionlog
Starts a daemon on the simulator in a temporary folder, then: 16 clients send ~1 MB label
requests and never read the replies (RSS before/after), 16 idle clients while status and
label are asked, 16 clients trickling a byte every 4 s while status and stop are asked.
The automated versions (scripted clients, a clock the test moves) are in
Tests/MotionAppTests/ControlSocketAbuseTests.swift."""
import os, socket, subprocess, sys, time, tempfile

binary = sys.argv[1]
work = tempfile.mkdtemp(prefix="ml-attack-")
sock = work + "/control.sock"
cfg = work + "/empty.yaml"; open(cfg, "w").write("# empty\n")
log = open(work + "/daemon.log", "w")
d = subprocess.Popen([binary, "daemon", "--board", "simulator", "--out", work + "/rec", "--socket", sock,
                      "--config", cfg, "--no-gpio"], stdout=log, stderr=log)
for _ in range(200):
    if os.path.exists(sock): break
    time.sleep(0.05)
time.sleep(0.5)

def rss():
    kv = {}
    for line in open(f"/proc/{d.pid}/status"):
        k, v = line.split(":", 1); kv[k] = v.strip()
    return f"RSS {int(kv['VmRSS'].split()[0])//1024} MB (peak {int(kv['VmHWM'].split()[0])//1024} MB), threads {kv['Threads']}"

def cli(*args):
    t = time.time()
    r = subprocess.run([binary, *args, "--socket", sock], capture_output=True, text=True, timeout=120)
    return f"exit {r.returncode} in {time.time()-t:.1f}s: {(r.stdout + r.stderr).strip().splitlines()[0][:100] if (r.stdout + r.stderr).strip() else ''}"

def connect():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(sock); return s

print("idle daemon:", rss())
print("start:", cli("start"))
time.sleep(1)
print("recording:", rss())

# A: 16 x 1 MB label requests, replies never read
big = b'{"command":"label","label":"' + b"W" * ((1 << 20) - 100) + b'"}\n'
import threading
clients = []
def push(s):
    try: s.sendall(big)
    except OSError: pass
threads = []
for _ in range(16):
    s = connect(); s.settimeout(5); clients.append(s)
    t = threading.Thread(target=push, args=(s,)); t.start(); threads.append(t)
for t in threads: t.join()
time.sleep(2)
print("A: 16 x 1 MB label requests, replies unread:", rss())
print("A: status:", cli("status"))
for s in clients: s.close()

# B: 16 idle clients hold their connections
idle = [connect() for _ in range(16)]
time.sleep(0.5)
print("B: 16 idle clients: status:", cli("status"))
print("B: 16 idle clients: label T:", cli("label", "T"))
for s in idle: s.close()

# C: 16 clients trickle one byte every 4 s for 20 s; status and stop meanwhile
trickle = [connect() for _ in range(16)]
start = time.time(); cut = 0; answered = []
while time.time() - start < 20:
    for s in list(trickle):
        try: s.send(b" ")
        except (BrokenPipeError, ConnectionResetError):
            trickle.remove(s); cut += 1
    answered.append(cli("status"))
    time.sleep(4)
print(f"C: trickling clients cut off by the daemon within 20 s: {cut}/16")
print("C: status while trickling:", answered[0], "|", answered[-1])
print("C: stop:", cli("stop"))
print("after:", rss())
for s in trickle: s.close()
d.terminate(); d.wait()
print("daemon exit", d.returncode)
