#!/usr/bin/env python3
"""Samples the CPU ticks (utime + stime, 1/100 s) of every thread of every
Cassandra node on this machine every 2 s: "time pid tid name ticks" lines
on stdout until killed. A thread's name is its name at the sample: the
nodes' shared pool renames its workers to the stage each serves."""
import os
import sys
import time

while True:
    t = time.time()
    for pid in filter(str.isdigit, os.listdir('/proc')):
        try:
            if 'CassandraDaemon' not in open(f'/proc/{pid}/cmdline').read():
                continue
            for tid in os.listdir(f'/proc/{pid}/task'):
                s = open(f'/proc/{pid}/task/{tid}/stat').read()
                name = s[s.index('(') + 1:s.rindex(')')].replace(' ', '_')
                f = s[s.rindex(')') + 2:].split()
                print(f'{t:.1f} {pid} {tid} {name} {int(f[11]) + int(f[12])}')
        except (FileNotFoundError, ProcessLookupError):
            pass
    sys.stdout.flush()
    time.sleep(2)
