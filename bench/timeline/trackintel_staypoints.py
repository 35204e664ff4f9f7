#!/usr/bin/env python3
"""Stay points of a motionlog recording's L rows by trackintel (mie-lab/trackintel,
`generate_staypoints`, sliding method, its defaults: 100 m, 5 min, gap 15 min, except
include_last=True, as motionlog keeps a final stay; `--default` for include_last=False), printed as
JSON [[start, end, lat, lon], ...] in Unix seconds. Run with a Python that has trackintel
(geolife.py --trackintel-python); not used by the tests.
"""
import json
import sys

import geopandas as gpd
import pandas as pd
import trackintel as ti
from trackintel.preprocessing import generate_staypoints

rows = []
with open(sys.argv[1], encoding="ascii") as f:
    next(f)
    for line in f:
        p = line.rstrip("\n").split(",")
        if p[0] == "L":
            rows.append((float(p[2]), float(p[3]), float(p[4])))
df = pd.DataFrame(rows, columns=["t", "lat", "lon"])
df["tracked_at"] = pd.to_datetime(df["t"], unit="s", utc=True)
df["user_id"] = 0
pfs = gpd.GeoDataFrame(df, geometry=gpd.points_from_xy(df["lon"], df["lat"]), crs="EPSG:4326")
pfs = ti.Positionfixes(pfs[["user_id", "tracked_at", "geometry"]])
_, sp = generate_staypoints(pfs, method="sliding", include_last="--default" not in sys.argv[2:])
out = []
for _, s in sp.iterrows():
    out.append([s["started_at"].timestamp(), s["finished_at"].timestamp(), s.geometry.y, s.geometry.x])
json.dump(sorted(out), sys.stdout)
