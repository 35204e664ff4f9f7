#!/usr/bin/env python3
"""Score `motionlog summary`'s timeline on real trajectories labelled by the people who
recorded them, side by side with the simple speed rule.

Three sources are read (docs/ANALYSIS.md, "Measured on real labelled trajectories"):
GeoLife (below), the Aalto TrafficSense public-transport dataset (`read_trafficsense`;
four of its devices are in Tests/Fixtures/trafficsense) and Go!Track (`read_gotrack`).

GeoLife (Microsoft Research Asia; Zheng et al., WWW 2009, UbiComp 2008) is a folder per
user: `Trajectory/*.plt` (latitude, longitude, 0, altitude in feet or -777, days since
1899-12-30, date, time; GMT) and, for some users, `labels.txt` (start, end, mode; GMT).
The data is not in this repository (its licence is Microsoft Research's, non-commercial);
point this script at a copy.

For every .plt of a labelled user (every TrafficSense device): the fixes become a motionlog recording of `L` rows only
(as a converted GPX would be: no speed, course, eph), `motionlog summary FILE --json`
computes its timeline, and every labelled second between the file's first and last fix is
scored: right when the move containing it has the labelled activity (walk and run ->
walking; bike -> cycling; bus, car, taxi, train, subway, motorcycle -> vehicle; airplane,
boat and unlabelled time are not scored; TrafficSense's bus, tram, subway, train, car ->
vehicle). Only seconds the logger covered are scored:
those between two consecutive fixes at most `COVERED_STEP` seconds apart (a label often
spans hours in which the logger was off). A second inside a stop, a gap or an `unknown`
move counts as wrong. Where labels of different classes overlap, the second is not scored.

The baseline is the speed rule the issue names: the speed of each fix-to-fix step, walking
below 2.2 m/s, cycling below 7 m/s, vehicle above; a second takes the class of the step
holding it.

Reported: recall per class, balanced accuracy (mean recall over walking, cycling,
vehicle), overall accuracy, and the confusion matrix, for motionlog and the baseline, plus
per-file lines with --verbose. With --trackintel-python (a Python with trackintel), the
stops are compared with trackintel's stay points on the same fixes (its defaults, which
motionlog's follow, and include_last=True, as motionlog keeps a final stay): the share of each side's stops that overlap one of the other's in time
for at least half of the shorter, and the Jaccard index of the seconds spent in a stop.

Usage:
  bench/timeline/score.py [--geolife DIR [--users 010,020]] [--trafficsense DIR] [--gotrack DIR] [--motionlog .build/release/motionlog]
                            [--work DIR] [--json OUT] [--verbose]
                            [--trackintel-python /path/to/venv/bin/python] [--every N]

--every N keeps one fix in N (a sparser logger); the covered step then grows to N × 60 s.
"""
import argparse
import calendar
import glob
import json
import math
import os
import subprocess
import sys
import tempfile
import time

CLASSES = ["walking", "cycling", "vehicle"]
MODE_CLASS = {
    "walk": "walking", "run": "walking",
    "bike": "cycling",
    "bus": "vehicle", "car": "vehicle", "taxi": "vehicle", "train": "vehicle",
    "subway": "vehicle", "motorcycle": "vehicle", "tram": "vehicle",
}
COVERED_STEP = 120   # raised to N × 60 s with --every N
HEADER = "Source, Label, When, X, Y, Z, UA_X, UA_Y, UA_Z, Pitch, Roll, Yaw\n"


def gmt_epoch(date_text, time_text):
    """'2008/03/28' or '2008-03-28' and '14:52:54' (GMT) -> Unix seconds."""
    y, mo, d = (int(p) for p in date_text.replace("/", "-").split("-"))
    h, mi, s = (int(p) for p in time_text.split(":"))
    return calendar.timegm((y, mo, d, h, mi, s, 0, 0, 0))


def read_labels(path):
    labels = []
    with open(path, encoding="utf-8") as f:
        next(f, None)
        for line in f:
            parts = line.strip().split("\t")
            if len(parts) != 3:
                continue
            start = gmt_epoch(*parts[0].split(" "))
            end = gmt_epoch(*parts[1].split(" "))
            labels.append((start, end, parts[2].strip().lower()))
    return labels


def read_plt(path):
    fixes = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f):
            if number < 6:
                continue
            parts = line.strip().split(",")
            if len(parts) < 7:
                continue
            try:
                lat, lon, alt_ft = float(parts[0]), float(parts[1]), float(parts[3])
                when = gmt_epoch(parts[5], parts[6])
            except ValueError:
                continue
            alt = float("nan") if alt_ft == -777 else alt_ft * 0.3048
            fixes.append((when, lat, lon, alt))
    # GeoLife files hold occasional repeated or out-of-order seconds; the format needs
    # strictly increasing When, so keep the first fix of each second, in order.
    fixes.sort(key=lambda f: f[0])
    unique = []
    for fix in fixes:
        if not unique or fix[0] > unique[-1][0]:
            unique.append(fix)
    return unique


def write_recording(fixes, path):
    with open(path, "w", encoding="ascii") as f:
        f.write(HEADER)
        for when, lat, lon, alt in fixes:
            alt_text = "nan" if math.isnan(alt) else repr(alt)
            f.write(f"L,W,{when}.0,{lat!r},{lon!r},{alt_text},nan,nan,nan,nan,nan,3\n")


def read_trafficsense(folder):
    """Aalto TrafficSense public-transport dataset (Helsinki, 26 Aug 2016, CC BY 4.0):
    `device_data_filtered.csv` (time, device_id, lat, lng, activity — the activity column is
    the phone's own recognition, not used) and `manual_log.csv`, the participants' hand log
    of each vehicle leg (departure to arrival). Both in the same local time, read as if UTC
    (only differences matter). Yields (name, fixes, labels) per device."""
    import csv
    def epoch(text):
        day, clock = text.strip().split(" ")
        return gmt_epoch(day, clock.split(".")[0])
    fixes, labels = {}, {}
    with open(os.path.join(folder, "device_data_filtered.csv"), encoding="utf-8") as f:
        for row in csv.DictReader(f):
            fixes.setdefault(row["device_id"], []).append(
                (epoch(row["time"]), float(row["lat"]), float(row["lng"]), float("nan")))
    with open(os.path.join(folder, "manual_log.csv"), encoding="utf-8") as f:
        for row in csv.DictReader(f):
            row = {k.strip(): (v or "").strip() for k, v in row.items()}
            if row.get("vehicle_dep_time") and row.get("vehicle_arr_time"):
                mode = row["line_type"].lower()
                labels.setdefault(row["device_id"], []).append(
                    (epoch(row["vehicle_dep_time"]), epoch(row["vehicle_arr_time"]), mode))
    for device in sorted(fixes, key=int):
        points = sorted(fixes[device])
        unique = []
        for p in points:
            if not unique or p[0] > unique[-1][0]:
                unique.append(p)
        yield f"trafficsense-{device}", unique, labels.get(device, [])


def read_gotrack(folder):
    """UCI "GPS Trajectories" (Go!Track app, Aracaju, Brazil; Cruz et al. 2015):
    `go_track_trackspoints.csv` (latitude, longitude, track_id, time; an `id` column in
    some copies) and `go_track_tracks.csv` (id, ..., car_or_bus: 1 car, 2 bus), each track
    labelled as a whole by the person who recorded it. Yields (name, fixes, labels) per track."""
    import csv
    kinds = {}
    with open(os.path.join(folder, "go_track_tracks.csv"), encoding="utf-8") as f:
        for row in csv.DictReader(f):
            kinds[row["id"].strip()] = {"1": "car", "2": "bus"}.get(row["car_or_bus"].strip())
    tracks = {}
    with open(os.path.join(folder, "go_track_trackspoints.csv"), encoding="utf-8") as f:
        for row in csv.DictReader(f):
            day, clock = row["time"].strip().split(" ")
            tracks.setdefault(row["track_id"].strip(), []).append(
                (gmt_epoch(day, clock), float(row["latitude"]), float(row["longitude"]), float("nan")))
    for track in sorted(tracks, key=int):
        points = sorted(tracks[track])
        unique = [p for k, p in enumerate(points) if k == 0 or p[0] > points[k - 1][0]]
        if kinds.get(track) and len(unique) >= 2:
            yield f"gotrack-{track}", unique, [(unique[0][0], unique[-1][0], kinds[track])]


def read_geolife(folder, users=None):
    """GeoLife user folders with labels.txt (only `users`, when given); yields (name,
    fixes, labels) per .plt."""
    for labels_path in sorted(glob.glob(os.path.join(folder, "*", "labels.txt"))):
        user_dir = os.path.dirname(labels_path)
        if users and os.path.basename(user_dir) not in users:
            continue
        labels = read_labels(labels_path)
        for plt in sorted(glob.glob(os.path.join(user_dir, "Trajectory", "*.plt"))):
            yield f"{os.path.basename(user_dir)}-{os.path.basename(plt)[:-4]}", read_plt(plt), labels


def label_for(second, labels):
    """The mode of the label holding `second`; None where none does or where labels of
    different classes overlap (GeoLife's user 010 has a 4-hour `walk` holding a taxi ride
    and overlapping a train: the truth there is unknown)."""
    modes = {mode for start, end, mode in labels if start <= second <= end}
    if len({MODE_CLASS.get(m) for m in modes}) != 1:
        return None
    return min(modes)


def haversine(lat1, lon1, lat2, lon2):
    r = 6371008.8
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * r * math.asin(min(1.0, math.sqrt(a)))


def baseline_classes(fixes, covered_step):
    """(start, end, class) per fix-to-fix step, by the 2.2 / 7 m/s speed rule."""
    steps = []
    for (t1, la1, lo1, _), (t2, la2, lo2, _) in zip(fixes, fixes[1:]):
        dt = t2 - t1
        if dt <= 0 or dt > covered_step:
            continue
        v = haversine(la1, lo1, la2, lo2) / dt
        steps.append((t1, t2, "walking" if v < 2.2 else "cycling" if v < 7 else "vehicle"))
    return steps


def timeline_classes(summary):
    spans = []
    for entry in summary.get("timeline", []):
        kind = entry.get("type")
        label = entry.get("activity", "unknown") if kind == "move" else kind
        spans.append((entry["start"], entry["end"], label))
    return spans


def class_at(second, spans, cursor):
    """The label of the span holding `second`; spans sorted, cursor advanced in place."""
    while cursor[0] < len(spans) and spans[cursor[0]][1] < second:
        cursor[0] += 1
    if cursor[0] < len(spans) and spans[cursor[0]][0] <= second <= spans[cursor[0]][1]:
        return spans[cursor[0]][2]
    return "none"


def overlap(a, b):
    return max(0.0, min(a[1], b[1]) - max(a[0], b[0]))


def stop_agreement(ours, theirs):
    """Matched stops each way (overlap >= half the shorter) and time Jaccard."""
    def matched(xs, ys):
        return sum(1 for x in xs
                   if any(overlap(x, y) >= 0.5 * min(x[1] - x[0], y[1] - y[0]) > 0 for y in ys))
    both = sum(overlap(x, y) for x in ours for y in theirs)
    either = sum(x[1] - x[0] for x in ours) + sum(y[1] - y[0] for y in theirs) - both
    return {"motionlog_stops": len(ours), "trackintel_stops": len(theirs),
            "motionlog_matched": matched(ours, theirs), "trackintel_matched": matched(theirs, ours),
            "seconds_both": both, "seconds_either": either}


def score(truth_and_predictions):
    matrix = {c: {} for c in CLASSES}
    for truth, predicted in truth_and_predictions:
        row = matrix[truth]
        row[predicted] = row.get(predicted, 0) + 1
    recall = {}
    for c in CLASSES:
        total = sum(matrix[c].values())
        recall[c] = matrix[c].get(c, 0) / total if total else None
    present = [r for r in recall.values() if r is not None]
    right = sum(matrix[c].get(c, 0) for c in CLASSES)
    total = sum(sum(row.values()) for row in matrix.values())
    return {
        "balanced_accuracy": sum(present) / len(present) if present else None,
        "accuracy": right / total if total else None,
        "recall": recall,
        "seconds": {c: sum(matrix[c].values()) for c in CLASSES},
        "confusion": matrix,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--geolife", help="GeoLife Data folder (user folders with labels.txt)")
    parser.add_argument("--users", help="only these GeoLife users, comma-separated (e.g. 010,020)")
    parser.add_argument("--trafficsense", help="folder with TrafficSense's device_data_filtered.csv and manual_log.csv")
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("--gotrack", help="folder with Go!Track's go_track_trackspoints.csv and go_track_tracks.csv")
    parser.add_argument("--motionlog", default=os.path.join(repo, ".build/release/motionlog"))
    parser.add_argument("--work", help="folder for the converted recordings (default: temporary)")
    parser.add_argument("--json", help="write the scores here")
    parser.add_argument("--verbose", action="store_true", help="one line per file")
    parser.add_argument("--trackintel-python", help="compare stops with trackintel's stay points")
    parser.add_argument("--every", type=int, default=1,
                        help="keep every Nth fix only (a sparser logger; default 1: all)")
    args = parser.parse_args()
    if not (args.geolife or args.trafficsense or args.gotrack):
        parser.error("give --geolife DIR, --trafficsense DIR and/or --gotrack DIR")
    if not os.access(args.motionlog, os.X_OK):
        parser.error(f"{args.motionlog} is not an executable: build it with "
                     "`swift build -c release --product motionlog` or pass --motionlog")

    work = args.work or tempfile.mkdtemp(prefix="timeline-score-")
    os.makedirs(work, exist_ok=True)
    ours, baseline = [], []
    stops = {"motionlog_stops": 0, "trackintel_stops": 0, "motionlog_matched": 0,
             "trackintel_matched": 0, "seconds_both": 0.0, "seconds_either": 0.0}
    by_mode = {}   # labelled mode -> motionlog's classes, seconds
    files = 0
    started = time.time()
    sources = []
    if args.geolife:
        sources.append(read_geolife(args.geolife, set(args.users.split(",")) if args.users else None))
    if args.trafficsense:
        sources.append(read_trafficsense(args.trafficsense))
    if args.gotrack:
        sources.append(read_gotrack(args.gotrack))
    for name, fixes, labels in (item for source in sources for item in source):
        fixes = fixes[::args.every]
        if len(fixes) < 2:
            continue
        first, last = fixes[0][0], fixes[-1][0]
        relevant = [l for l in labels if l[1] >= first and l[0] <= last]
        if not any(MODE_CLASS.get(l[2]) for l in relevant):
            continue
        csv_path = os.path.join(work, name + ".csv")
        write_recording(fixes, csv_path)
        run = subprocess.run([args.motionlog, "summary", csv_path, "--json"],
                             capture_output=True, text=True)
        if run.returncode != 0:
            print(f"{csv_path}: summary failed ({run.returncode}): {run.stderr.strip()}",
                  file=sys.stderr)
            continue
        spans = timeline_classes(json.loads(run.stdout))
        if args.trackintel_python:
            helper = os.path.join(os.path.dirname(os.path.abspath(__file__)), "trackintel_staypoints.py")
            ti = subprocess.run([args.trackintel_python, helper, csv_path], capture_output=True, text=True)
            if ti.returncode == 0:
                theirs = [(a, b) for a, b, _, _ in json.loads(ti.stdout)]
                mine = [(a, b) for a, b, kind in spans if kind == "stop"]
                for key, value in stop_agreement(mine, theirs).items():
                    stops[key] += value
            else:
                print(f"{csv_path}: trackintel failed: {ti.stderr.strip()[-300:]}", file=sys.stderr)
        steps = baseline_classes(fixes, max(COVERED_STEP, 60 * args.every))
        files += 1
        file_ours, file_base = [], []
        cursor_ours, cursor_base, cursor_cover = [0], [0], [0]
        for second in range(first, last + 1):
            if class_at(second, steps, cursor_cover) == "none":   # the logger was off
                continue
            mode = label_for(second, relevant)
            truth = MODE_CLASS.get(mode) if mode else None
            if truth is None:
                continue
            predicted = class_at(second, spans, cursor_ours)
            file_ours.append((truth, predicted))
            row = by_mode.setdefault(mode, {})
            row[predicted] = row.get(predicted, 0) + 1
            file_base.append((truth, class_at(second, steps, cursor_base)))
        ours += file_ours
        baseline += file_base
        if args.verbose and file_ours:
            s = score(file_ours)
            kinds = ", ".join(f"{c} {n}" for c, n in s["seconds"].items() if n)
            moves = " | ".join(f"{label} {int(b - a)} s" for a, b, label in spans)
            print(f"{name}: {len(fixes)} fixes; labelled {kinds}; "
                  f"right {s['accuracy']:.2f}; timeline: {moves}")
    result = {"files": files, "motionlog": score(ours), "speed_rule": score(baseline),
              "seconds": time.time() - started}
    if args.trackintel_python:
        result["stops"] = stops
        jaccard = stops["seconds_both"] / stops["seconds_either"] if stops["seconds_either"] else float("nan")
        print(f"stops: motionlog {stops['motionlog_stops']} ({stops['motionlog_matched']} matched), "
              f"trackintel {stops['trackintel_stops']} ({stops['trackintel_matched']} matched), "
              f"time Jaccard {jaccard:.3f}")
    for name in ("motionlog", "speed_rule"):
        s = result[name]
        if s["balanced_accuracy"] is None:
            print(f"{name}: nothing scored")
            continue
        recalls = "  ".join(f"{c} {s['recall'][c]:.3f}" if s["recall"][c] is not None else f"{c} -"
                            for c in CLASSES)
        print(f"{name:10s} balanced {s['balanced_accuracy']:.3f}  accuracy {s['accuracy']:.3f}  "
              f"recall: {recalls}")
        for c in CLASSES:
            row = s["confusion"][c]
            if row:
                print(f"    {c:8s} ({sum(row.values())} s): "
                      + ", ".join(f"{k} {v}" for k, v in sorted(row.items(), key=lambda kv: -kv[1])))
    result["motionlog_by_mode"] = by_mode
    print("motionlog by labelled mode:")
    for mode, row in sorted(by_mode.items()):
        total = sum(row.values())
        print(f"    {mode:10s} {total:7d} s: " + ", ".join(
            f"{k} {v / total:.0%}" for k, v in sorted(row.items(), key=lambda kv: -kv[1])))
    print(f"{files} files, {time.time() - started:.1f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=2, sort_keys=True)


if __name__ == "__main__":
    main()
