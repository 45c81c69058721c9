// The PostgreSQL store's clock offset measured many times against a server on this machine (whose clock is
// this process's own, so the true offset is 0): the spread of the measured offsets and what the scheduler
// rounds them to (a rounded offset of 1 starts that process's runs a millisecond before their instant).
//
//   npx tsx bench/clock-offset.ts [--measurements 200]
//   PUNCTUAL_BENCH_PG_URL names the database (default postgres://postgres@127.0.0.1:5432/test); nothing is
//   written to it.

import pg from 'pg';
import { measureClockOffset } from '../packages/punctual/src/store/postgres/postgres-clock-offset.js';

const PG_URL = process.env.PUNCTUAL_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const i = process.argv.indexOf('--measurements');
const MEASUREMENTS = i >= 0 ? Number(process.argv[i + 1]) : 200;

async function main(): Promise<void> {
  const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
  const offsets: number[] = [];
  try {
    for (let n = 0; n < MEASUREMENTS; n++) {
      offsets.push((await measureClockOffset(pool)).offsetMs);
      // Apart by a few ms, so each starts at another fraction of the local clock's millisecond.
      await new Promise((r) => setTimeout(r, 3));
    }
  } finally {
    await pool.end();
  }
  offsets.sort((a, b) => a - b);
  const at = (q: number): string =>
    offsets[Math.min(offsets.length - 1, Math.floor(q * offsets.length))]!.toFixed(3);
  const rounded = new Map<number, number>();
  for (const o of offsets) rounded.set(Math.round(o) + 0, (rounded.get(Math.round(o) + 0) ?? 0) + 1);
  console.log(`| measurements | min | median | max ms | rounded to the ms (as the scheduler does) |`);
  console.log(`| ---: | ---: | ---: | ---: | --- |`);
  const counts = [...rounded].sort((a, b) => a[0] - b[0]).map(([ms, n]) => `${ms}: ${n}`);
  console.log(`| ${offsets.length} | ${at(0)} | ${at(0.5)} | ${at(1)} | ${counts.join(', ')} |`);
}

await main();
