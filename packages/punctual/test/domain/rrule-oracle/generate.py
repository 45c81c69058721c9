#!/usr/bin/env python3
"""Regenerates rows.json: RRULEs around DST transitions with the instants an independent RFC 5545
implementation (python-dateutil) gives, for rrule-oracle.test.ts to compare row by row.

A development tool, not a runtime dependency: `/usr/bin/python3 generate.py > rows.json` (Debian's
python3-dateutil 2.8.2; 2.9.0 gives identical rows; the zone data is the system's tzdata).
Deterministic: a fixed seed, no clock reads.

dateutil steps in local wall-clock time (as RFC 5545 says) but leaves two things to the caller, done here
as RFC 5545 3.3.5 and 3.3.10 ask:
- a computed local time that does not exist (in a DST gap: `datetime_exists` is false) is ignored and is
  not counted by COUNT, so COUNT and UNTIL are applied here, after the filtering, not by dateutil;
- a repeated local time is taken on its first pass (fold=0, the earlier instant).
The file also lists each zone's transitions as Python's tzdata sees them, so that the test can check that
Node's ICU data agrees on every date used.
"""

import datetime as dt
import json
import random
import sys
from zoneinfo import ZoneInfo

import dateutil
from dateutil import rrule
from dateutil.tz import datetime_exists, resolve_imaginary

UTC = dt.timezone.utc
ZONES = {
    # zone: years whose transitions are used (Iran has had no DST since 2023).
    'America/New_York': [2026, 2027],
    'Europe/Paris': [2026, 2027],
    'Australia/Lord_Howe': [2026, 2027],
    'Pacific/Chatham': [2026, 2027],
    'America/Santiago': [2026, 2027],
    'Africa/Cairo': [2026, 2027],
    'Asia/Tehran': [2021, 2022],
    'America/Havana': [2026, 2027],
}
FREQS = ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY', 'HOURLY', 'MINUTELY', 'SECONDLY']
FREQ_CONST = {f: getattr(rrule, f) for f in FREQS}
DAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU']
# How far past DTSTART dateutil is asked (keeps every row bounded and fast).
SPAN = {
    'SECONDLY': dt.timedelta(hours=30),
    'MINUTELY': dt.timedelta(days=4),
    'HOURLY': dt.timedelta(days=40),
    'DAILY': dt.timedelta(days=400),
    'WEEKLY': dt.timedelta(days=800),
    'MONTHLY': dt.timedelta(days=2000),
    'YEARLY': dt.timedelta(days=4000),
}
TAKE = 10


def transitions(zone, year):
    """UTC instants in `year` where the zone's offset changes, with the offsets before and after."""
    z = ZoneInfo(zone)
    out = []
    t = dt.datetime(year, 1, 1, tzinfo=UTC)
    end = dt.datetime(year + 1, 1, 1, tzinfo=UTC)
    step = dt.timedelta(minutes=15)
    prev = t.astimezone(z).utcoffset()
    while t < end:
        n = t + step
        off = n.astimezone(z).utcoffset()
        if off != prev:
            out.append((n, prev, off))
            prev = off
        t = n
    return out


def stamp(d):
    return d.strftime('%Y%m%dT%H%M%S')


def iso(d):
    return d.astimezone(UTC).strftime('%Y-%m-%dT%H:%M:%S.000Z')


def pick(rng, values, lo, hi):
    return sorted(rng.sample(values, rng.randint(lo, hi)))


def by_parts(rng, freq, start):
    """Random BY parts that suit the frequency (RFC 5545's table), most often the time-of-day ones."""
    parts = {}
    sub_daily = freq in ('HOURLY', 'MINUTELY', 'SECONDLY')
    if freq in ('YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY') or rng.random() < 0.5:
        if rng.random() < 0.6:
            parts['BYHOUR'] = pick(rng, list(range(24)), 1, 4)
            # Keep the transition hours likely.
            if rng.random() < 0.6:
                parts['BYHOUR'] = sorted(set(parts['BYHOUR']) | {start.hour, (start.hour + 1) % 24})
    if freq != 'SECONDLY' and rng.random() < 0.6:
        parts['BYMINUTE'] = pick(rng, [0, 5, 15, 20, 21, 30, 39, 45, 59], 1, 3)
    if freq in ('MINUTELY', 'HOURLY') and rng.random() < 0.3:
        parts['BYSECOND'] = pick(rng, [0, 10, 30, 59], 1, 2)
    if freq == 'SECONDLY' and rng.random() < 0.7:
        parts['BYMINUTE'] = pick(rng, list(range(0, 60, 5)), 1, 3)
        if rng.random() < 0.5:
            parts['BYSECOND'] = pick(rng, [0, 15, 30, 45], 1, 2)
    r = rng.random()
    if freq in ('WEEKLY', 'DAILY') or (sub_daily and r < 0.2):
        if rng.random() < 0.5:
            parts['BYDAY'] = pick(rng, DAYS, 2, 5)
    elif freq == 'MONTHLY':
        c = rng.random()
        if c < 0.35:
            parts['BYDAY'] = [rng.choice(['1', '2', '-1']) + rng.choice(DAYS)]
        elif c < 0.7:
            parts['BYMONTHDAY'] = pick(rng, [1, 2, 5, 15, 28, 31, -1], 1, 3)
        elif c < 0.85:
            parts['BYDAY'] = pick(rng, DAYS[:5], 5, 5)
            parts['BYSETPOS'] = [rng.choice([1, -1, 2])]
    elif freq == 'YEARLY':
        c = rng.random()
        parts['BYMONTH'] = sorted({start.month, rng.randint(1, 12)})
        if c < 0.3:
            parts['BYDAY'] = [rng.choice(['1', '-1', '2']) + rng.choice(DAYS)]
        elif c < 0.6:
            parts['BYMONTHDAY'] = pick(rng, [1, start.day, 29, -1], 1, 2)
        elif c < 0.7:
            del parts['BYMONTH']
            parts['BYWEEKNO'] = [rng.choice([1, 10, 14, 40, 44, -1])]
            parts['BYDAY'] = [rng.choice(DAYS)]
        elif c < 0.8:
            del parts['BYMONTH']
            parts['BYYEARDAY'] = pick(rng, [1, 60, 100, 280, 300, -1], 1, 2)
    if sub_daily and rng.random() < 0.1:
        parts['BYMONTHDAY'] = sorted({start.day, (start.day % 28) + 1})
    if sub_daily and 'BYMINUTE' in parts and freq == 'HOURLY' and rng.random() < 0.15:
        parts['BYSETPOS'] = [rng.choice([1, -1])]
    return parts


def dateutil_kwargs(parts):
    kw = {}
    for k, v in parts.items():
        if k == 'BYDAY':
            days = []
            for d in v:
                n = d[:-2]
                wd = getattr(rrule, d[-2:])
                days.append(wd(int(n)) if n else wd)
            kw['byweekday'] = days
        else:
            kw[k.lower()] = v
    return kw


def expected(freq, interval, parts, start, count, until):
    """Instants per RFC 5545: dateutil's local times, nonexistent ones dropped, first passes, then COUNT."""
    end = start + SPAN[freq]
    try:
        rule = rrule.rrule(FREQ_CONST[freq], interval=interval, dtstart=start, **dateutil_kwargs(parts))
    except ValueError:
        # "Invalid rrule byxxx generates an empty set": the interval grid never meets the BY parts.
        return [], end
    out = []
    for d in rule.between(start, end, inc=True):
        if not datetime_exists(d):
            assert resolve_imaginary(d) != d  # in a gap: dateutil would move it; RFC 5545 drops it
            continue
        inst = d.replace(fold=0).astimezone(UTC)
        # The instant reads back as the same local time, on its first pass.
        back = inst.astimezone(d.tzinfo)
        assert back.replace(tzinfo=None) == d.replace(tzinfo=None) and back.fold == 0
        if until is not None and inst > until:
            break
        out.append(inst)
        if count is not None and len(out) >= count:
            break
    return out, end


def main():
    rng = random.Random(21)
    zones = {}
    rows = []
    for zone, years in ZONES.items():
        z = ZoneInfo(zone)
        ts = [t for y in years for t in transitions(zone, y)]
        zones[zone] = [[iso(t), int(a.total_seconds()), int(b.total_seconds())] for t, a, b in ts]
        for t, before, after in ts:
            for freq in FREQS:
                n = 6 if freq in ('HOURLY', 'MINUTELY') else 3 if freq == 'SECONDLY' else 1
                for _ in range(n):
                    # DTSTART a little before the change (local time), on a whole minute, existing.
                    back = dt.timedelta(minutes=rng.choice([0, 15, 30, 45, 60, 90, 120, 180, 300, 600]))
                    if freq in ('DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'):
                        back += dt.timedelta(days=rng.choice([0, 1, 3, 10]))
                    local = (t - back - dt.timedelta(minutes=rng.choice([0, 1, 7, 30]))).astimezone(z)
                    local = local.replace(second=rng.choice([0, 0, 0, 20]) if freq == 'SECONDLY' else 0)
                    start = local.replace(tzinfo=None).replace(tzinfo=z)  # fold=0: the first pass
                    if not datetime_exists(start):
                        continue
                    interval = rng.randint(1, 5)
                    parts = by_parts(rng, freq, start)
                    count = until = None
                    c = rng.random()
                    if c < 0.35:
                        count = rng.randint(2, 8)
                    elif c < 0.6:
                        until = (t + dt.timedelta(minutes=rng.choice([0, 30, 90, 600, 3000]) * (
                            1 if freq in ('HOURLY', 'MINUTELY', 'SECONDLY') else 200))).astimezone(UTC)
                    occ, end = expected(freq, interval, parts, start, count, until)
                    line = [f'FREQ={freq}', f'INTERVAL={interval}']
                    for k, v in parts.items():
                        line.append(f'{k}={",".join(str(x) for x in v)}')
                    if count is not None:
                        line.append(f'COUNT={count}')
                    if until is not None:
                        line.append(f'UNTIL={until.strftime("%Y%m%dT%H%M%SZ")}')
                    rows.append({
                        'spec': f'DTSTART;TZID={zone}:{stamp(start)}\nRRULE:{";".join(line)}',
                        'expected': [iso(o) for o in occ[:TAKE]],
                        # No occurrence other than `expected` lies before `searchedTo`.
                        'searchedTo': iso(end) if len(occ) < TAKE else None,
                    })
    json.dump({
        'generator': 'generate.py',
        'dateutil': dateutil.__version__,
        'transitions': zones,
        'rows': rows,
    }, sys.stdout, indent=1)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()
