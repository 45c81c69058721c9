// The checks the failover and rolling-restart tests share: from the database, every occurrence of the
// window's schedules (keys `s…`) has exactly one run and every run is final; from the instances' delivery
// logs (`<runId> <attempt> <occurrenceId> <worker> <epochMs>` per line, one `deliveries-<name>.log` per
// instance), every succeeded run was delivered and a run delivered more than once had its lease reclaimed.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { occurrenceKeySql } from '../../src/store/common/occurrence-id.js';

export interface RunFigures {
  expectedOccurrences: number;
  runs: number;
  duplicateOccurrences: number;
  missedOccurrences: number;
  runsNotFinal: number;
  runsNotSucceeded: number;
  deliveries: number;
  extraDeliveries: number;
  extraDeliveriesWithoutReclaim: number;
  succeededWithoutDelivery: number;
  leasesReclaimed: number;
}

/** Waits (up to `timeoutMs`) until `expected` runs of `s…` schedules exist and none is open. */
export async function waitUntilFinal(
  client: pg.Client,
  schema: string,
  expected: number,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await client.query(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE r.state IN ('scheduled','running'))::int AS open
         FROM ${schema}.runs r JOIN ${schema}.schedules s ON s.id = r.schedule_id WHERE s.key LIKE 's%'`,
    );
    if ((rows[0].n >= expected && rows[0].open === 0) || Date.now() > deadline) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Delivery times per instance name, read from the logs in `dir`. */
export function deliveryTimes(dir: string): Map<string, number[]> {
  const times = new Map<string, number[]>();
  for (const f of readdirSync(dir).filter((f) => f.startsWith('deliveries-'))) {
    const name = f.slice('deliveries-'.length, -'.log'.length);
    const list = times.get(name) ?? [];
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      const at = Number(line.split(' ')[4]);
      if (line && Number.isFinite(at)) list.push(at);
    }
    times.set(name, list);
  }
  return times;
}

export async function checkRuns(
  client: pg.Client,
  schema: string,
  expected: number,
  dir: string,
): Promise<{ figures: RunFigures; ok: boolean }> {
  const runs = await client.query(
    `SELECT r.id::text, ${occurrenceKeySql('r.')} AS occurrence_id, r.state
       FROM ${schema}.runs r JOIN ${schema}.schedules s ON s.id = r.schedule_id WHERE s.key LIKE 's%'`,
  );
  const reclaimedAttempts = await client.query(
    `SELECT run_id::text, count(*)::int AS n FROM ${schema}.attempts WHERE outcome = 'leaseExpired' GROUP BY run_id`,
  );
  const reclaimed = new Map(reclaimedAttempts.rows.map((r) => [r.run_id as string, r.n as number]));
  const byOccurrence = new Map<string, number>();
  for (const r of runs.rows) byOccurrence.set(r.occurrence_id, (byOccurrence.get(r.occurrence_id) ?? 0) + 1);
  const deliveries = new Map<string, number>();
  for (const f of readdirSync(dir).filter((f) => f.startsWith('deliveries-'))) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      const id = line.split(' ')[0];
      if (id) deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
    }
  }
  let extraDeliveries = 0;
  let unexplained = 0;
  for (const [id, n] of deliveries) {
    if (n <= 1) continue;
    extraDeliveries += n - 1;
    if (n - 1 > (reclaimed.get(id) ?? 0)) unexplained++;
  }
  const figures: RunFigures = {
    expectedOccurrences: expected,
    runs: runs.rows.length,
    duplicateOccurrences: [...byOccurrence.values()].filter((n) => n > 1).length,
    missedOccurrences: expected - byOccurrence.size,
    runsNotFinal: runs.rows.filter((r) => r.state === 'scheduled' || r.state === 'running').length,
    runsNotSucceeded: runs.rows.filter((r) => r.state !== 'succeeded').length,
    deliveries: [...deliveries.values()].reduce((a, b) => a + b, 0),
    extraDeliveries,
    extraDeliveriesWithoutReclaim: unexplained,
    succeededWithoutDelivery: runs.rows.filter((r) => r.state === 'succeeded' && !deliveries.has(r.id))
      .length,
    leasesReclaimed: [...reclaimed.values()].reduce((a, b) => a + b, 0),
  };
  const ok =
    figures.duplicateOccurrences === 0 &&
    figures.missedOccurrences === 0 &&
    figures.runsNotFinal === 0 &&
    figures.extraDeliveriesWithoutReclaim === 0 &&
    figures.succeededWithoutDelivery === 0;
  return { figures, ok };
}
