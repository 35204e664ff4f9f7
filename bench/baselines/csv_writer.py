"""The Python baseline: the same rows written with the standard library's csv.writer.

usage: python3 csv_writer.py ROWS_FILE OUT_PATH REPETITIONS

ROWS_FILE holds 88-byte little-endian records: u8 source letter, u8 label letter,
6 bytes padding, f64 when, 9 x f64 values (A/G/M use the first 3, D/L all 9; an L
row's last value is the fix mode, written as an integer as motionlog does).
Floats are written by csv.writer as repr(), the shortest round-trip text, like motionlog.
Only writing is timed (not reading the rows). Prints one JSON object.
"""
import csv
import json
import struct
import sys
import time


def load_rows(path):
    with open(path, "rb") as f:
        data = f.read()
    rows = []
    for source, label, when, *values in struct.iter_unpack("<BB6x10d", data):
        letter = chr(source)
        if letter in "DL":
            fields = values
            if letter == "L":
                fields = values[:8] + [int(values[8])]
        else:
            fields = values[:3]
        rows.append((letter, chr(label), when, *fields))
    return rows


def main():
    if len(sys.argv) < 4:
        sys.stderr.write("usage: csv_writer.py ROWS_FILE OUT_PATH REPETITIONS\n")
        return 2
    rows = load_rows(sys.argv[1])
    seconds = []
    for _ in range(int(sys.argv[3])):
        with open(sys.argv[2], "w", newline="", buffering=256 * 1024) as out:
            writer = csv.writer(out, lineterminator="\n")
            t0 = time.perf_counter()
            writer.writerows(rows)
            out.flush()
            seconds.append(time.perf_counter() - t0)
    print(json.dumps({"rows": len(rows), "seconds": seconds}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
