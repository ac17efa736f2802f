#!/usr/bin/env python3
"""The nodes' CPU over the write step by thread name, from poll.py's
samples and the run's progress lines (each prefixed with its Unix time):
each thread's ticks between two samples go to its name at the later one.

    by-name.py samples.txt progress.txt POINTS"""
import collections
import re
import sys

samples, progress, points = sys.argv[1], sys.argv[2], float(sys.argv[3])
# The first write step: from its first progress line to its "done".
lines = [l for l in open(progress) if re.search(r'Write \S+ values', l)]
end = next(i for i, l in enumerate(lines) if ': done in ' in l)
t0, t1 = float(lines[0].split()[0]), float(lines[end].split()[0])
prev, cpu = {}, collections.Counter()
for l in open(samples):
    t, pid, tid, name, ticks = l.split()
    t, ticks = float(t), int(ticks)
    if t0 < t <= t1:
        cpu[re.sub(r'[-_#:]?\d+$', '', name)] += ticks - prev.get((pid, tid), 0)
    prev[(pid, tid)] = ticks
total = sum(cpu.values())
print(f'write step {t1 - t0:.0f} s: nodes {total / 100:.1f} s of CPU, {total / 100 / points * 1e6:.0f} µs a point')
for name, v in cpu.most_common(12):
    print(f'{name:18s} {v / 100:7.1f} s {100 * v / total:5.1f}%')
