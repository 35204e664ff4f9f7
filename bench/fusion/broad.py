#!/usr/bin/env python3
"""Orientation accuracy of `motionlog fuse` on BROAD trials, side by side with VQF,
x-io Fusion (imufusion) and Madgwick (2010).

For every trial: the IMU data become a motionlog recording (A, G, M rows), `motionlog fuse`
computes its D rows, the attitude is rebuilt from each D row's pitch, roll and yaw exactly
as docs/FUSION.md defines them, and the errors against the optical reference are computed
as the BROAD publication defines them (Laidig, Caruso, Cereatti, Seel, Data 6(7), 2021):
error quaternion q_err = q_est * inv(q_ref), both sensor-to-ENU; total error = rotation
angle of q_err; heading error = its rotation about the vertical; inclination error = the
rest. RMS over the samples the trial marks as `movement` (NaN reference samples skipped).

Two variants are reported:
  * "absolute"  — no heading offset removed (the publication's metric: the optical frame
                  of BROAD is aligned with ENU / magnetic north);
  * "offset-removed" — a constant heading offset between estimate and reference (the
                  circular mean of the heading error over the scored samples) is removed
                  first, as the testdata README describes.

Usage:
  bench/fusion/broad.py [TRIAL ...] [--motionlog .build/release/motionlog] [--json bench/fusion/results.json]

TRIAL: a BROAD trial as CSV (optionally .gz; columns as in testdata/imu/broad), as the
BROAD .hdf5 or as the BROAD .mat file. Default: ../shared/testdata/imu/broad/*.csv.gz.
Needs Python 3 with numpy; for the comparison VQF (pip `vqf`) and x-io Fusion (pip
`imufusion`), which are installed on demand into a virtual environment in .build/fusion-venv
(h5py or scipy only for .hdf5 / .mat input). `--reuse results.json` takes the comparison
filters' figures from an earlier run for trials it has (same name and sample count): they do
not change when motionlog does, and Madgwick in Python takes minutes.
"""
import argparse
import glob
import gzip
import json
import math
import os
import subprocess
import sys
import tempfile
import time

try:
    import numpy as np
except ImportError:  # installed into the virtual environment by ensure_packages()
    np = None

GRAVITY = 9.80665  # m/s² per g: BROAD's accelerometer is m/s², the A rows are g.
REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))


VENV = os.path.join(REPO, '.build', 'fusion-venv')
PACKAGES = ('numpy', 'vqf==2.1.2', 'imufusion==1.3.3')


def ensure_packages():
    """Imports vqf and imufusion; when missing, creates a virtual environment in
    .build/fusion-venv, installs them there with pip and runs this script again in it."""
    missing = []
    for name in ('numpy', 'vqf', 'imufusion'):
        try:
            __import__(name)
        except ImportError:
            missing.append(name)
    if not missing:
        return
    python = os.path.join(VENV, 'bin', 'python')
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        sys.exit(f'{" ".join(missing)} missing in {VENV}: remove that folder and run again')
    if not os.path.exists(python):
        print(f'creating {VENV} for the comparison filters ({", ".join(PACKAGES)})...', file=sys.stderr)
        if subprocess.run([sys.executable, '-m', 'venv', VENV]).returncode != 0:
            sys.exit('could not create a virtual environment: install python3-venv (apt-get install python3-venv)')
    r = subprocess.run([python, '-m', 'pip', 'install', '--quiet', *PACKAGES])
    if r.returncode != 0:
        sys.exit(f'could not install {" ".join(PACKAGES)} into {VENV}')
    os.execv(python, [python, os.path.abspath(__file__), *sys.argv[1:]])


# ---------------------------------------------------------------------------------------
# Loading trials

class Trial:
    def __init__(self, name, rate, acc, gyr, mag, ref, movement):
        self.name, self.rate = name, float(rate)
        self.acc, self.gyr, self.mag = acc, gyr, mag          # m/s² (specific force), rad/s, µT
        self.ref, self.movement = ref, movement.astype(bool)  # (N, 4) w x y z sensor→ENU, (N,)


def load_trial(path):
    name = os.path.basename(path).split('.')[0]
    if path.endswith('.hdf5') or path.endswith('.h5'):
        import h5py
        with h5py.File(path, 'r') as f:
            g = lambda k: np.array(f[k])
            return Trial(name, np.squeeze(g('sampling_rate')), g('imu_acc'), g('imu_gyr'), g('imu_mag'),
                         g('opt_quat'), np.squeeze(g('movement')))
    if path.endswith('.mat'):
        import scipy.io as spio
        d = spio.loadmat(path)
        return Trial(name, np.squeeze(d['sampling_rate']), d['imu_acc'], d['imu_gyr'], d['imu_mag'],
                     d['opt_quat'], np.squeeze(d['movement']))
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt') as f:
        header = f.readline().strip().split(',')
        data = np.loadtxt(f, delimiter=',')
    col = {n: i for i, n in enumerate(header)}
    c = lambda *names: data[:, [col[n] for n in names]]
    t = data[:, col['t_s']]
    rate = 1 / np.median(np.diff(t))
    if abs(rate - 285.714) < 0.5:
        rate = 285.714  # BROAD's documented rate (t_s is rounded to microseconds)
    return Trial(name, rate,
                 c('acc_x_mps2', 'acc_y_mps2', 'acc_z_mps2'),
                 c('gyr_x_radps', 'gyr_y_radps', 'gyr_z_radps'),
                 c('mag_x_uT', 'mag_y_uT', 'mag_z_uT'),
                 c('opt_quat_w', 'opt_quat_x', 'opt_quat_y', 'opt_quat_z'),
                 data[:, col['movement']])


# ---------------------------------------------------------------------------------------
# Quaternions (w, x, y, z; Hamilton product; q maps sensor → earth)

def qmul(a, b):
    w1, x1, y1, z1 = np.moveaxis(np.asarray(a, float), -1, 0)
    w2, x2, y2, z2 = np.moveaxis(np.asarray(b, float), -1, 0)
    return np.stack([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
                     w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
                     w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2], axis=-1)


def qinv(q):
    q = np.array(q, float)
    q[..., 1:] *= -1
    return q


def axis_quat(axis, angle):
    h = np.asarray(angle, float) / 2
    q = np.zeros(h.shape + (4,))
    q[..., 0] = np.cos(h)
    q[..., 1 + axis] = np.sin(h)
    return q


NWU_TO_ENU = axis_quat(2, math.pi / 2)  # earth frame with x north → x east


def quat_from_d_rows(pitch, roll, yaw):
    """docs/FUSION.md: R = Rz(yaw) · Rx(pitch) · Ry(roll), device → ENU."""
    return qmul(qmul(axis_quat(2, yaw), axis_quat(0, pitch)), axis_quat(1, roll))


# ---------------------------------------------------------------------------------------
# Errors as BROAD defines them

def errors(est, ref, movement, remove_heading_offset=False):
    est = est / np.linalg.norm(est, axis=1)[:, None]
    ref = ref / np.linalg.norm(ref, axis=1)[:, None]
    d = qmul(est, qinv(ref))  # error in the earth frame
    valid = movement & np.all(np.isfinite(d), axis=1)
    if remove_heading_offset:
        heading = 2 * np.arctan2(d[valid, 3], d[valid, 0])
        offset = math.atan2(np.mean(np.sin(heading)), np.mean(np.cos(heading)))
        d = qmul(axis_quat(2, -offset), d)
    total = 2 * np.arccos(np.clip(np.abs(d[:, 0]), 0, 1))
    heading = 2 * np.arctan(np.abs(d[:, 3] / d[:, 0]))
    incl = 2 * np.arccos(np.clip(np.sqrt(d[:, 0] ** 2 + d[:, 3] ** 2), 0, 1))
    rms = lambda e: float(np.degrees(np.sqrt(np.mean(e[valid] ** 2))))
    return dict(inclination=rms(incl), heading=rms(heading), total=rms(total))


# ---------------------------------------------------------------------------------------
# The estimators

def write_recording(trial, path):
    """The trial as a motionlog recording: A = −specific force / g, G rad/s, M µT;
    When = seconds since the first sample (relative When)."""
    a = (-trial.acc / GRAVITY).tolist()
    gyr, mag = trial.gyr.tolist(), trial.mag.tolist()
    n = len(a)
    lines = ['Source, Label, When, X, Y, Z, UA_X, UA_Y, UA_Z, Pitch, Roll, Yaw']
    for i in range(n):
        when = repr(i / trial.rate)
        lines.append(f'A,W,{when},{a[i][0]!r},{a[i][1]!r},{a[i][2]!r}')
        g = gyr[i]
        lines.append(f'G,W,{when},{g[0]!r},{g[1]!r},{g[2]!r}')
        m = mag[i]
        if all(math.isfinite(x) for x in m):
            lines.append(f'M,W,{when},{m[0]!r},{m[1]!r},{m[2]!r}')
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')


def run_motionlog(trial, binary, workdir, extra=()):
    rec = os.path.join(workdir, trial.name + '.csv')
    out = os.path.join(workdir, trial.name + '-fused.csv')
    write_recording(trial, rec)
    start = time.time()
    r = subprocess.run([binary, 'fuse', rec, '-o', out, '--no-calibration', '--force', *extra],
                       capture_output=True, text=True)
    elapsed = time.time() - start
    if r.returncode != 0:
        sys.exit(f'motionlog fuse failed ({r.returncode}):\n{r.stderr}{r.stdout}')
    d = []
    with open(out) as f:
        next(f)
        for line in f:
            if line.startswith('D,'):
                v = line.rstrip('\n').split(',')
                d.append((float(v[9]), float(v[10]), float(v[11])))
    d = np.array(d)
    if len(d) != len(trial.acc):
        sys.exit(f'expected {len(trial.acc)} D rows, got {len(d)}')
    return quat_from_d_rows(d[:, 0], d[:, 1], d[:, 2]), elapsed


def run_vqf(trial):
    import vqf
    v = vqf.VQF(1 / trial.rate)
    out = v.updateBatch(np.ascontiguousarray(trial.gyr), np.ascontiguousarray(trial.acc),
                        np.ascontiguousarray(trial.mag))
    return out['quat9D']  # ENU


def run_imufusion(trial):
    import imufusion
    ahrs = imufusion.Ahrs()
    if hasattr(imufusion, 'AhrsSettings'):  # imufusion ≥ 1.3: update() takes no dt
        settings = imufusion.AhrsSettings()  # the library's defaults...
        settings.sample_rate = trial.rate    # ...at this trial's rate
        if hasattr(ahrs, 'set_settings'):
            ahrs.set_settings(settings)
        else:
            ahrs.settings = settings
        step = lambda g, a, m: ahrs.update(g, a, m)
    else:
        step = lambda g, a, m: ahrs.update(g, a, m, 1 / trial.rate)
    gyr = np.degrees(trial.gyr)
    acc = trial.acc / GRAVITY
    q = np.empty((len(gyr), 4))
    for i in range(len(gyr)):
        step(gyr[i], acc[i], trial.mag[i])
        qq = ahrs.get_quaternion() if hasattr(ahrs, 'get_quaternion') else ahrs.quaternion
        q[i] = qq.wxyz if hasattr(qq, 'wxyz') else qq
    return qmul(NWU_TO_ENU, q)  # default convention: North-West-Up


def madgwick_2010(trial, beta=0.041):
    """Madgwick's 2010 MARG filter (gradient-descent step on gravity and the magnetic field,
    earth frame x north / z up), started from the first accelerometer and magnetometer
    sample as the BROAD example code does."""
    dt = 1 / trial.rate
    acc, gyr, mag = trial.acc, trial.gyr, trial.mag
    q0, q1, q2, q3 = initial_from_acc_mag(acc[0], mag[0])
    out = np.empty((len(acc), 4))
    for i in range(len(acc)):
        gx, gy, gz = gyr[i]
        ax, ay, az = acc[i]
        mx, my, mz = mag[i]
        # Rate of change from the gyroscope: ½ q ⊗ (0, ω).
        d0 = 0.5 * (-q1 * gx - q2 * gy - q3 * gz)
        d1 = 0.5 * (q0 * gx + q2 * gz - q3 * gy)
        d2 = 0.5 * (q0 * gy - q1 * gz + q3 * gx)
        d3 = 0.5 * (q0 * gz + q1 * gy - q2 * gx)
        na, nm = math.sqrt(ax * ax + ay * ay + az * az), math.sqrt(mx * mx + my * my + mz * mz)
        if na > 0 and nm > 0:
            ax, ay, az = ax / na, ay / na, az / na
            mx, my, mz = mx / nm, my / nm, mz / nm
            # Earth-frame direction of the field: h = R(q) m; reference b = (|h_xy|, 0, h_z).
            hx = (1 - 2 * (q2 * q2 + q3 * q3)) * mx + 2 * (q1 * q2 - q0 * q3) * my + 2 * (q1 * q3 + q0 * q2) * mz
            hy = 2 * (q1 * q2 + q0 * q3) * mx + (1 - 2 * (q1 * q1 + q3 * q3)) * my + 2 * (q2 * q3 - q0 * q1) * mz
            hz = 2 * (q1 * q3 - q0 * q2) * mx + 2 * (q2 * q3 + q0 * q1) * my + (1 - 2 * (q1 * q1 + q2 * q2)) * mz
            bx, bz = math.sqrt(hx * hx + hy * hy), hz
            # Objective: R(q)ᵀ·(0,0,1) − a and R(q)ᵀ·b − m, and its Jacobian.
            f = (2 * (q1 * q3 - q0 * q2) - ax,
                 2 * (q0 * q1 + q2 * q3) - ay,
                 2 * (0.5 - q1 * q1 - q2 * q2) - az,
                 2 * bx * (0.5 - q2 * q2 - q3 * q3) + 2 * bz * (q1 * q3 - q0 * q2) - mx,
                 2 * bx * (q1 * q2 - q0 * q3) + 2 * bz * (q0 * q1 + q2 * q3) - my,
                 2 * bx * (q0 * q2 + q1 * q3) + 2 * bz * (0.5 - q1 * q1 - q2 * q2) - mz)
            J = ((-2 * q2, 2 * q3, -2 * q0, 2 * q1),
                 (2 * q1, 2 * q0, 2 * q3, 2 * q2),
                 (0, -4 * q1, -4 * q2, 0),
                 (-2 * bz * q2, 2 * bz * q3, -4 * bx * q2 - 2 * bz * q0, -4 * bx * q3 + 2 * bz * q1),
                 (-2 * bx * q3 + 2 * bz * q1, 2 * bx * q2 + 2 * bz * q0, 2 * bx * q1 + 2 * bz * q3, -2 * bx * q0 + 2 * bz * q2),
                 (2 * bx * q2, 2 * bx * q3 - 4 * bz * q1, 2 * bx * q0 - 4 * bz * q2, 2 * bx * q1))
            s = [sum(J[r][c] * f[r] for r in range(6)) for c in range(4)]
            ns = math.sqrt(sum(x * x for x in s))
            if ns > 0:
                d0 -= beta * s[0] / ns; d1 -= beta * s[1] / ns; d2 -= beta * s[2] / ns; d3 -= beta * s[3] / ns
        q0 += d0 * dt; q1 += d1 * dt; q2 += d2 * dt; q3 += d3 * dt
        n = math.sqrt(q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3)
        q0, q1, q2, q3 = q0 / n, q1 / n, q2 / n, q3 / n
        out[i] = (q0, q1, q2, q3)
    return qmul(NWU_TO_ENU, out)


def initial_from_acc_mag(acc, mag):
    """Sensor → NWU from one sample: z up = acc, x north = horizontal part of the field."""
    z = acc / np.linalg.norm(acc)
    x = mag - np.dot(mag, z) * z
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    R = np.column_stack([x, y, z]).T  # rows: earth axes in sensor coordinates → R maps sensor → earth
    w = math.sqrt(max(0.0, 1 + R[0, 0] + R[1, 1] + R[2, 2])) / 2
    if w > 1e-6:
        return (w, (R[2, 1] - R[1, 2]) / (4 * w), (R[0, 2] - R[2, 0]) / (4 * w), (R[1, 0] - R[0, 1]) / (4 * w))
    i = int(np.argmax(np.diag(R)))
    j, k = (i + 1) % 3, (i + 2) % 3
    s = math.sqrt(max(0.0, 1 + R[i, i] - R[j, j] - R[k, k])) * 2
    q = [0.0] * 4
    q[0] = (R[k, j] - R[j, k]) / s
    q[1 + i] = s / 4
    q[1 + j] = (R[j, i] + R[i, j]) / s
    q[1 + k] = (R[k, i] + R[i, k]) / s
    return tuple(q)


# ---------------------------------------------------------------------------------------

FILTERS = [('motionlog fuse', None), ('VQF (pip vqf, defaults)', 'run_vqf'),
           ('x-io Fusion (imufusion defaults)', 'run_imufusion'), ('Madgwick 2010 (beta 0.041)', 'madgwick_2010')]
SHORT = {'motionlog fuse': 'motionlog', 'VQF (pip vqf, defaults)': 'VQF',
         'x-io Fusion (imufusion defaults)': 'x-io Fusion', 'Madgwick 2010 (beta 0.041)': 'Madgwick'}


def markdown(results, names, variant):
    """Per-trial table: total (inclination / heading) in degrees for each filter, and the mean."""
    lines = ['| trial | ' + ' | '.join(SHORT.get(n, n) for n in names) + ' |',
             '|---|' + '---|' * len(names)]
    cell = lambda e: f'{e["total"]:.2f} ({e["inclination"]:.2f} / {e["heading"]:.2f})'
    for tname, t in results['trials'].items():
        lines.append(f'| {tname} | ' + ' | '.join(cell(t['filters'][n][variant]) for n in names) + ' |')
    lines.append('| **mean** | ' + ' | '.join('**' + cell(results['mean'][n][variant]) + '**' for n in names) + ' |')
    return '\n'.join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('trials', nargs='*')
    p.add_argument('--motionlog', default=os.path.join(REPO, '.build', 'release', 'motionlog'))
    p.add_argument('--json', default=os.path.join(REPO, 'bench', 'fusion', 'results.json'))
    p.add_argument('--only-motionlog', action='store_true', help='skip the other filters (quick checks)')
    p.add_argument('--reuse', metavar='JSON', help='take the other filters\' results from an earlier results.json '
                   'for the trials it has (same name and sample count)')
    p.add_argument('--markdown', action='store_true', help='also print per-trial tables in Markdown')
    p.add_argument('--fuse-arg', action='append', default=[], metavar='ARG',
                   help='extra argument for motionlog fuse (repeatable), e.g. --fuse-arg=--parameter=accelTimeConstant=2')
    args = p.parse_args()
    trials = args.trials or sorted(glob.glob(os.path.join(REPO, '..', 'shared', 'testdata', 'imu', 'broad', '*.csv*')))
    if not trials:
        sys.exit('no trial given and none found in ../shared/testdata/imu/broad')
    if not os.access(args.motionlog, os.X_OK):
        sys.exit(f'{args.motionlog} not found: build it with `swift build -c release --product motionlog` '
                 'or pass --motionlog PATH')
    if args.only_motionlog:
        if np is None:
            ensure_packages()
    else:
        ensure_packages()
    earlier = {}
    if args.reuse:
        with open(args.reuse) as f:
            earlier = json.load(f).get('trials', {})

    filters = FILTERS[:1] if args.only_motionlog else FILTERS
    results = {'method': __doc__.split('\n\n')[1].replace('\n', ' '), 'trials': {}}
    with tempfile.TemporaryDirectory() as work:
        for path in trials:
            trial = load_trial(path)
            print(f'{trial.name}: {len(trial.acc)} samples', file=sys.stderr)
            old = earlier.get(trial.name, {})
            per = {}
            for name, fn in filters:
                if fn is not None and old.get('samples') == len(trial.acc) and name in old.get('filters', {}):
                    per[name] = old['filters'][name]
                    continue
                if fn is None:
                    q, elapsed = run_motionlog(trial, args.motionlog, work, args.fuse_arg)
                else:
                    start = time.time()
                    q = globals()[fn](trial)
                    elapsed = time.time() - start
                per[name] = {'absolute': errors(q, trial.ref, trial.movement),
                             'offset-removed': errors(q, trial.ref, trial.movement, remove_heading_offset=True),
                             'seconds': round(elapsed, 2)}
            results['trials'][trial.name] = {'samples': int(len(trial.acc)), 'rate_hz': trial.rate,
                                             'scored_samples': int(trial.movement.sum()), 'filters': per}
    names = [n for n, _ in filters]
    mean = {}
    for n in names:
        mean[n] = {v: {k: float(np.mean([t['filters'][n][v][k] for t in results['trials'].values()]))
                       for k in ('inclination', 'heading', 'total')} for v in ('absolute', 'offset-removed')}
    results['mean'] = mean
    for variant in ('absolute', 'offset-removed'):
        title = 'no heading offset removed (BROAD metric)' if variant == 'absolute' else 'constant heading offset removed'
        print(f'\nRMS error in degrees, {title}; mean over {len(results["trials"])} trial(s)')
        print(f'{"filter":36} {"inclination":>11} {"heading":>8} {"total":>7}')
        for n in names:
            m = mean[n][variant]
            print(f'{n:36} {m["inclination"]:11.2f} {m["heading"]:8.2f} {m["total"]:7.2f}')
        if len(results['trials']) > 1:
            for tname, t in results['trials'].items():
                print(f'  {tname}: ' + ', '.join(f'{n.split(" ")[0]} {t["filters"][n][variant]["total"]:.2f}' for n in names))
        if args.markdown:
            print('\nRMS error in degrees: total (inclination / heading), ' + title + '\n')
            print(markdown(results, names, variant))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(results, f, indent=2)
            f.write('\n')
        print(f'\nwritten: {args.json}')


if __name__ == '__main__':
    main()
