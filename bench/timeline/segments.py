#!/usr/bin/env python3
"""How far GPS speed features go on labelled segments: a ceiling, not a score of motionlog.

For every GeoLife label of at least a minute holding five fixes or more (walk/run, bike,
and the vehicle modes, mapped as in score.py), the fix-to-fix speeds between fixes at most
120 s apart give: speed percentiles over the moving steps (50, 85, 95, 25), acceleration
percentiles (50, 90), the share of time standing (< 0.5 m/s), the mean heading change and
the heading change rate (share of turns over 30 degrees; Zheng et al. 2008) and the
coefficient of variation of the moving speeds (their velocity change rate's spirit).

Then, with the labels' own segmentation given and stops not counted (so this is easier
than what `score.py` scores), each user in turn is held out and classified by models fitted
on the others, weighting every segment by its seconds and every class equally:
  * the issue's speed rule on the segment's median speed (2.2 / 7 m/s);
  * a random forest and a gradient-boosted classifier on all the features;
  * a decision tree of depth 1 and 2 between bike and vehicle segments faster than a walk
    (p85 >= 2.3 m/s), and the tree fitted on all of them (where the line falls).
Reported: balanced accuracy (mean recall over walking, cycling, vehicle, by seconds).

Needs numpy and scikit-learn (a virtual environment: `python3 -m venv V && V/bin/pip
install numpy scikit-learn`). GeoLife is not in this repository (see score.py).

Usage: V/bin/python bench/timeline/segments.py GEOLIFE_DIR [GEOLIFE_DIR...]
"""
import math
import os
import sys

import numpy as np
from sklearn.ensemble import GradientBoostingClassifier, RandomForestClassifier
from sklearn.tree import DecisionTreeClassifier, export_text

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import CLASSES, MODE_CLASS, haversine, read_geolife  # noqa: E402

NAMES = ["p50", "p85", "p95", "p25", "accel_p50", "accel_p90", "standing", "heading_mean",
         "heading_rate_30", "speed_cv"]
MIN_SECONDS, MIN_FIXES, MAX_STEP, MAX_SPEED = 60, 5, 120, 70


def features(fixes):
    """The features of one labelled segment's fixes, or None when too few steps."""
    speeds, accels, headings = [], [], []
    standing = total = 0.0
    previous = None
    for (t0, la0, lo0, _), (t1, la1, lo1, _) in zip(fixes, fixes[1:]):
        dt = t1 - t0
        if dt <= 0 or dt > MAX_STEP:
            previous = None
            continue
        v = haversine(la0, lo0, la1, lo1) / dt
        if v > MAX_SPEED:
            continue
        speeds.append(v)
        total += dt
        if v < 0.5:
            standing += dt
        if previous is not None:
            accels.append(abs(v - previous) / dt)
        previous = v
        headings.append(math.degrees(math.atan2(lo1 - lo0, la1 - la0)))
    if len(speeds) < 4:
        return None
    speeds = np.array(speeds)
    moving = speeds[speeds >= 0.5] if (speeds >= 0.5).sum() >= 3 else speeds
    accels = np.array(accels) if accels else np.zeros(1)
    turns = np.abs((np.diff(headings) + 180) % 360 - 180) if len(headings) > 1 else np.zeros(1)
    return [np.percentile(moving, 50), np.percentile(moving, 85), np.percentile(moving, 95),
            np.percentile(moving, 25), np.percentile(accels, 50), np.percentile(accels, 90),
            standing / max(total, 1), float(np.mean(turns)), float(np.mean(turns > 30)),
            float(np.std(moving) / max(np.mean(moving), 0.1))]


def segments(folders):
    """(user, class, seconds, features) per usable labelled segment."""
    rows = []
    for folder in folders:
        seen = set()
        fixes_by_user = {}
        for name, fixes, labels in read_geolife(folder):
            user = name.split("-")[0]
            fixes_by_user.setdefault(user, []).extend(fixes)
            seen.add((user, tuple(labels)))
        for user, labels in seen:
            fixes = sorted(fixes_by_user[user])
            times = np.array([f[0] for f in fixes])
            for start, end, mode in labels:
                if mode not in MODE_CLASS or end - start < MIN_SECONDS:
                    continue
                i, j = np.searchsorted(times, start), np.searchsorted(times, end, side="right")
                if j - i < MIN_FIXES:
                    continue
                f = features(fixes[i:j])
                if f is not None:
                    rows.append((user, MODE_CLASS[mode], end - start, f))
    return rows


def balanced(y, w, predicted, classes=CLASSES):
    recalls = [w[(y == c) & (predicted == c)].sum() / w[y == c].sum() for c in classes if (y == c).any()]
    return float(np.mean(recalls)), [round(float(r), 3) for r in recalls]


def class_weights(y, w, mask):
    share = {c: 1.0 / w[mask & (y == c)].sum() for c in set(y[mask])}
    return np.array([share[c] for c in y[mask]]) * w[mask]


def leave_one_user_out(make, X, y, w, users, mask):
    predicted = y.copy()
    for user in sorted(set(users[mask])):
        train, test = mask & (users != user), mask & (users == user)
        if len(set(y[train])) < 2:
            continue
        model = make().fit(X[train], y[train], sample_weight=class_weights(y, w, train))
        predicted[test] = model.predict(X[test])
    return predicted


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows = segments(sys.argv[1:])
    users = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows], dtype=object)
    w = np.array([r[2] for r in rows], dtype=float)
    X = np.array([r[3] for r in rows])
    print(f"{len(rows)} labelled segments of {len(set(users))} users:",
          {c: f"{int((y == c).sum())} ({w[y == c].sum() / 3600:.1f} h)" for c in CLASSES})
    everyone = np.ones(len(y), dtype=bool)
    rule = np.where(X[:, 0] < 2.2, "walking", np.where(X[:, 0] < 7, "cycling", "vehicle"))
    print("speed rule on the median, balanced (walking, cycling, vehicle):", balanced(y, w, rule))
    forest = lambda: RandomForestClassifier(300, min_samples_leaf=3, random_state=0)  # noqa: E731
    boosted = lambda: GradientBoostingClassifier(random_state=0)  # noqa: E731
    for name, make in (("random forest", forest), ("gradient boosting", boosted)):
        print(f"{name}, leave one user out:", balanced(y, w, leave_one_user_out(make, X, y, w, users, everyone)))
    fast = (y != "walking") & (X[:, 1] >= 2.3)
    pair = ["cycling", "vehicle"]
    print(f"bike and vehicle segments faster than a walk: {int(fast.sum())}")
    for name in ("p50", "p85", "p95"):
        k = NAMES.index(name)
        for c in pair:
            print(f"  {name} {c}: 10/50/90 % {np.round(np.percentile(X[fast & (y == c), k], [10, 50, 90]), 2)}")
    for depth in (1, 2):
        tree = lambda: DecisionTreeClassifier(max_depth=depth, min_samples_leaf=5, random_state=0)  # noqa: E731
        predicted = leave_one_user_out(tree, X, y, w, users, fast)
        print(f"tree of depth {depth}, leave one user out, recall (cycling, vehicle):",
              balanced(y[fast], w[fast], predicted[fast], pair)[1])
        print(export_text(tree().fit(X[fast], y[fast], sample_weight=class_weights(y, w, fast)), feature_names=NAMES))


if __name__ == "__main__":
    main()
