#!/usr/bin/env python3
"""Synthetic robustness trials for the fusion, in BROAD's CSV layout, scored by broad.py.

BROAD's public trials cannot all be redistributed here; these scripted motions stress what
the held-back BROAD groups stress — fast translation, tapping, magnetic disturbances —
with a known truth. They are NOT BROAD results; they show behaviour, side by side with the
same reference filters.

  S1 fast translation  slow rotations + back-and-forth translation (up to ~3 g)
  S2 slow translation  slow rotations + gentle translation (≤ 0.3 g)
  S3 magnet phases     slow rotations; three phases with an extra 25–36 µT field
  S4 fast rotation     up to ~150 °/s, undisturbed
  S5 tapping           slow rotations + 20 ms knocks every 0.7 s
  S6 attached magnet   medium rotations with a 37 µT offset fixed to the sensor all along

Noise: accelerometer 0.03 m/s², gyroscope 0.004 rad/s, magnetometer 0.4 µT; gyroscope bias
(0.3, −0.2, 0.25) °/s; 285.714 Hz like BROAD; 5 s at rest first (not scored).

Usage: bench/fusion/synthetic.py [--out DIR] [broad.py options...]
"""
import gzip
import os
import subprocess
import sys
import tempfile

import numpy as np

RATE = 285.714
HEADER = ('t_s,acc_x_mps2,acc_y_mps2,acc_z_mps2,gyr_x_radps,gyr_y_radps,gyr_z_radps,mag_x_uT,mag_y_uT,mag_z_uT,'
          'opt_quat_w,opt_quat_x,opt_quat_y,opt_quat_z,opt_pos_x_m,opt_pos_y_m,opt_pos_z_m,movement\n')
FIELD = np.array([0, 18.0, -45.0])  # ENU, µT


def qmul(a, b):
    w1, x1, y1, z1 = np.moveaxis(a, -1, 0)
    w2, x2, y2, z2 = np.moveaxis(b, -1, 0)
    return np.stack([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2], -1)


def about(axis, angle):
    angle = np.asarray(angle, float)
    q = np.zeros(angle.shape + (4,))
    q[..., 0] = np.cos(angle / 2)
    q[..., 1 + axis] = np.sin(angle / 2)
    return q


def to_sensor(q, v):
    """v (ENU) in the sensor frame of attitude q (sensor → ENU)."""
    qc = q.copy()
    qc[..., 1:] *= -1
    vq = np.concatenate([np.zeros(v.shape[:-1] + (1,)), v], -1)
    return qmul(qmul(qc, vq), q)[..., 1:]


def moving(t):
    return np.clip((t - 5) / 2, 0, 1) * (t - 5)


def slow_rotation(t):
    s = moving(t)
    return qmul(qmul(about(2, 0.5 * np.sin(0.3 * s) + 1.0), about(0, 0.6 * np.sin(0.5 * s))), about(1, 0.5 * np.sin(0.37 * s + 1)))


def medium_rotation(t):
    s = moving(t)
    return qmul(qmul(about(2, 0.8 * s), about(0, 0.7 * np.sin(0.9 * s))), about(1, 0.6 * np.sin(0.7 * s + 1)))


def fast_rotation(t):
    s = moving(t)
    return qmul(qmul(about(2, 1.5 * np.sin(1.1 * s) + 0.5 * s), about(0, 1.2 * np.sin(1.7 * s))), about(1, 1.0 * np.sin(1.3 * s + 1)))


def translation(amplitudes, freqs):
    def f(t):
        s = moving(t)
        cols = [a * (2 * np.pi * hz) ** 2 * np.sin(2 * np.pi * hz * s + ph) for a, hz, ph in zip(amplitudes, freqs, (0, 0.5, 1))]
        return np.column_stack(cols) * (t > 5)[:, None]
    return f


def tapping(t):
    out = np.zeros((len(t), 3))
    rng = np.random.default_rng(9)
    for start in np.arange(8, t[-1], 0.7):
        out[(t >= start) & (t < start + 0.02)] += rng.normal(0, 60, 3)
    return out


def magnet_phases(t):
    out = np.tile(FIELD, (len(t), 1))
    for a, b, v in [(30, 45, [25, -10, 15]), (70, 78, [-30, 20, -10]), (100, 130, [15, 15, 0])]:
        out[(t >= a) & (t < b)] += v
    return out


def trial(path, attitude, linear=None, field=None, sensor_offset=None, seconds=150, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(int(seconds * RATE)) / RATE
    q = attitude(t)
    h = 1e-4
    d = qmul(np.concatenate([attitude(t - h)[..., :1], -attitude(t - h)[..., 1:]], -1), attitude(t + h))
    d[d[:, 0] < 0] *= -1
    n = np.linalg.norm(d[:, 1:], axis=1)
    gyr = d[:, 1:] / np.maximum(n, 1e-300)[:, None] * (2 * np.arctan2(n, d[:, 0]) / (2 * h))[:, None]
    lin = linear(t) if linear else np.zeros((len(t), 3))
    acc = to_sensor(q, lin + np.array([0, 0, 9.81]))
    mag = to_sensor(q, field(t) if field else np.tile(FIELD, (len(t), 1)))
    if sensor_offset is not None:
        mag += sensor_offset
    acc += rng.normal(0, 0.03, acc.shape)
    gyr += np.radians([0.3, -0.2, 0.25]) + rng.normal(0, 0.004, gyr.shape)
    mag += rng.normal(0, 0.4, mag.shape)
    data = np.column_stack([t, acc, gyr, mag, q, np.zeros((len(t), 3)), (t > 5).astype(float)])
    with gzip.open(path, 'wt') as f:
        f.write(HEADER)
        np.savetxt(f, data, delimiter=',', fmt='%.9g')


def main():
    args = sys.argv[1:]
    out = None
    if '--out' in args:
        i = args.index('--out')
        out = args[i + 1]
        del args[i:i + 2]
    work = out or tempfile.mkdtemp(prefix='motionlog-synthetic-')
    os.makedirs(work, exist_ok=True)
    trials = [
        ('S1_fast_translation', dict(attitude=slow_rotation, linear=translation((0.3, 0.25, 0.15), (1.3, 1.1, 1.7)), seed=1)),
        ('S2_slow_translation', dict(attitude=slow_rotation, linear=translation((0.3, 0.3, 0.1), (0.4, 0.3, 0.5)), seed=2)),
        ('S3_magnet_phases', dict(attitude=slow_rotation, field=magnet_phases, seed=3)),
        ('S4_fast_rotation', dict(attitude=fast_rotation, seed=4)),
        ('S5_tapping', dict(attitude=slow_rotation, linear=tapping, seed=5)),
        ('S6_attached_magnet', dict(attitude=medium_rotation, sensor_offset=np.array([30.0, -20, 10]), seed=7)),
    ]
    paths = []
    for name, spec in trials:
        path = os.path.join(work, name + '.csv.gz')
        if not os.path.exists(path):
            trial(path, **spec)
        paths.append(path)
    here = os.path.dirname(os.path.abspath(__file__))
    if not any(a.startswith('--json') for a in args):
        args += ['--json', os.path.join(here, 'results-synthetic.json')]
    sys.exit(subprocess.call([sys.executable, os.path.join(here, 'broad.py'), *paths, *args]))


if __name__ == '__main__':
    main()
