// What compiling a spec costs when nothing is remembered yet: N distinct specs of each form, compiled as a put
// compiles them (validated, in a zone with DST), then the description alone and the zone check alone. This is
// the cost a bulk load pays once per distinct (spec, zone), the materializer on a miss of its spec cache, and a
// preview on every call; and the materializer's next-occurrence search for schedules that share a spec. Prints
// a table of microseconds per spec; it only measures.
//
//   npx tsx bench/spec-compile.ts [--specs 20000] [--reps 3]

import { compileSpec } from '../packages/punctual/src/domain/timing/compile-spec.js';
import { describeCron } from '../packages/punctual/src/domain/timing/describe-cron.js';
import { resolveTimeZone } from '../packages/punctual/src/domain/timing/time-zone.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}
const N = Number(arg('specs', '20000'));
const REPS = Number(arg('reps', '3'));
/** A fixed instant: every spec below has occurrences after it. */
const NOW = Date.UTC(2030, 0, 7, 0, 0, 0);
const TZ = 'Europe/Paris';

/** The i-th distinct spec of each form (rep r shifts them, so no rep finds the previous one's results). */
const forms: Record<string, (i: number, r: number) => string> = {
  cron: (i, r) => `${i % 60} ${Math.floor(i / 60) % 60} ${(i + r) % 24} * * ${Math.floor(i / 3600) % 7}`,
  every: (i, r) => `@every ${3_600_000 + i + r * N}ms`,
  at: (i, r) => `@at ${new Date(NOW + (i + r * N) * 1000).toISOString()}`,
  rrule: (i, r) =>
    `RRULE:FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=${(i + r) % 24};BYMINUTE=${i % 60};BYSECOND=${Math.floor(i / 60) % 60}`,
};

function time(f: (i: number) => void, n: number): number {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) f(i);
  return ((performance.now() - t0) * 1000) / n;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const rows: [string, number][] = [];
for (const [form, spec] of Object.entries(forms)) {
  const n = form === 'rrule' ? Math.min(N, 5000) : N;
  const us: number[] = [];
  for (let r = 0; r < REPS; r++) {
    us.push(time((i) => compileSpec(spec(i, r), { tz: TZ, now: NOW, anchor: NOW }), n));
  }
  rows.push([`compileSpec, ${form} (validated, ${TZ})`, median(us)]);
}
const described: number[] = [];
for (let r = 0; r < REPS; r++) described.push(time((i) => describeCron(forms.cron!(i, r + REPS), TZ), N));
rows.push(['describeCron', median(described)]);
rows.push(['resolveTimeZone', time(() => resolveTimeZone(TZ, { field: 'tz' }), N)]);
// The materializer's step for schedules that share a spec and zone and fired together: each has its own
// compiled spec (its own creation instant), and each asks for the occurrence after the same instant.
for (const spec of ['0 30 9 * * *', '0 */5 * * * *']) {
  const shared = Array.from({ length: N }, (_, i) =>
    compileSpec(spec, { tz: TZ, now: NOW - i, anchor: NOW - i, validate: false }),
  );
  const us: number[] = [];
  for (let r = 0; r < REPS; r++) {
    const after = NOW + r * 86_400_000;
    us.push(time((i) => shared[i]!.nextAfter(after), N));
  }
  rows.push([`nextAfter, ${N} schedules of "${spec}" (${TZ}) after one instant`, median(us)]);
}

console.log(`| step (${N} distinct specs, median of ${REPS}) | µs per spec |`);
console.log('|---|---:|');
for (const [name, us] of rows) console.log(`| ${name} | ${us.toFixed(1)} |`);
