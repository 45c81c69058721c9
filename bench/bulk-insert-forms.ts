// The insert of 2,000 new schedules in its forms, timed by the server (EXPLAIN (ANALYZE, BUFFERS, WAL,
// TIMING OFF), median of ROUNDS, each in a transaction rolled back) into a table already holding PRELOAD
// schedules: the 28 arrays of unnest with ON CONFLICT and RETURNING * (the form before
// postgres-schedule-inserts.ts), one json parameter (json_to_recordset), and one jsonb parameter
// (jsonb_to_recordset, the store's form) with and without ON CONFLICT. SHOW=1 prints each plan once.
// `npx tsx --tsconfig tsconfig.test.json bench/bulk-insert-forms.ts` (PUNCTUAL_BENCH_PG_URL, schema
// explain_bulk, dropped at the end; ROUNDS, PRELOAD).
import pg from 'pg';
import { createScheduler } from '../packages/punctual/src/scheduler.js';
import { postgresStore } from '../packages/punctual/src/store/postgres/postgres-store.js';
import { contentOf, expectParam } from '../packages/punctual/src/store/postgres/postgres-schedule-changes.js';
import { targetKind } from '../packages/punctual/src/domain/target.js';
import { compactPolicies } from '../packages/punctual/src/store/stored-policies.js';

const URL = process.env.PUNCTUAL_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const S = 'explain_bulk';
const PRELOAD = Number(process.env.PRELOAD ?? 100000);
const N = 2000;
const input = (i: number) => ({
  key: `bulk-${i}`,
  spec: `${i % 60} 0 1 1 *`,
  target: { handler: 'noop' },
  payload: { n: i },
});

const admin = new pg.Client({ connectionString: URL });
await admin.connect();
await admin.query(`DROP SCHEMA IF EXISTS ${S} CASCADE`);
const store = postgresStore({ connectionString: URL, schema: S, listen: false });
await store.migrate();
const sc = createScheduler({ store });
sc.handle('noop', () => {});
const api = sc.tenant('default');
for (let i = 0; i < PRELOAD; i += 20000)
  await api.putBulk(Array.from({ length: Math.min(20000, PRELOAD - i) }, (_, n) => input(i + n)));
await admin.query(`VACUUM ANALYZE ${S}.schedules`).catch(() => {});
const now = Date.now();
const reqs = Array.from({ length: N }, (_, n) => ({
  ...api.preparePut(input(PRELOAD + n) as never, undefined, now, undefined, new Map()),
  revision: { actor: null },
}));

const s = `"${S}"`;
const oldSql = `WITH ins AS (INSERT INTO ${s}.schedules (tenant_id, key, spec, spec_kind, tz, target, target_kind, payload,
       policies, overlap, start_at, end_at, max_runs, jitter_ms, description, summary, labels, dst, calendar_rules,
       expect, state, paused_at, version, next_fire_at, fired_count, created_at, updated_at)
     SELECT u.tenant_id, u.key, u.spec, u.spec_kind, u.tz, u.target::jsonb, u.target_kind, u.payload::jsonb,
            u.policies::jsonb, u.overlap, u.start_at, u.end_at, u.max_runs, u.jitter_ms, u.description,
            u.summary, u.labels::jsonb, u.dst::jsonb, u.calendar_rules::jsonb, u.expect::jsonb, u.state, CASE WHEN u.state = 'paused' THEN u.now END, 1,
            u.next_fire_at, 0, u.now, u.now
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                   $8::text[], $9::text[], $10::text[], $11::bigint[], $12::bigint[], $13::int[],
                   $14::bigint[], $15::text[], $16::text[], $17::text[], $18::text[], $19::text[],
                   $20::bigint[], $21::bigint[], $22::text[], $28::text[]) WITH ORDINALITY
         AS u(tenant_id, key, spec, spec_kind, tz, target, target_kind, payload, policies, overlap, start_at,
              end_at, max_runs, jitter_ms, description, summary, labels, dst, calendar_rules, next_fire_at, now, state,
              expect, n)
      ORDER BY u.n
     ON CONFLICT (tenant_id, key) DO NOTHING
     RETURNING *),
     rev AS (INSERT INTO ${s}.schedule_revisions (tenant_id, key, schedule_id, version, at, actor, change,
               from_version, state, diff, content)
             SELECT ins.tenant_id, ins.key, ins.id, ins.version, ins.created_at, r.actor, r.change,
                    r.from_version, ins.state, NULL::jsonb, NULL::jsonb
               FROM ins JOIN unnest($23::text[], $24::text[], $25::text[], $26::text[], $27::int[])
                          AS r(tenant_id, key, actor, change, from_version)
                 ON r.tenant_id = ins.tenant_id AND r.key = ins.key)
     SELECT * FROM ins`;
const content = reqs.map((r) => contentOf(r.draft));
const oldParams = [
  reqs.map((r) => r.draft.tenantId),
  reqs.map((r) => r.draft.key),
  ...Array.from({ length: 17 }, (_, i) => content.map((v) => v[i])),
  reqs.map((r) => r.nextFireAt),
  reqs.map((r) => r.now),
  reqs.map(() => 'active'),
  reqs.map((r) => r.draft.tenantId),
  reqs.map((r) => r.draft.key),
  reqs.map(() => null),
  reqs.map(() => 'created'),
  reqs.map(() => null),
  reqs.map((r) => expectParam(r.draft)),
];
const COLS = `n int, tenant_id text, key text, spec text, spec_kind text, tz text, target jsonb,
  target_kind text, payload jsonb, policies jsonb, overlap text, start_at bigint, end_at bigint, max_runs int,
  jitter_ms bigint, description text, summary text, labels jsonb, dst jsonb, calendar_rules jsonb,
  expect jsonb, state text, next_fire_at bigint, now bigint, actor text, change text, from_version int`;
const jsonSql = (
  conflict: string,
  returning: string,
  fn = 'json_to_recordset($1::json)',
) => `WITH u AS (SELECT * FROM ${fn} AS u(${COLS})),
     ins AS (INSERT INTO ${s}.schedules (tenant_id, key, spec, spec_kind, tz, target, target_kind, payload,
               policies, overlap, start_at, end_at, max_runs, jitter_ms, description, summary, labels, dst,
               calendar_rules, expect, state, paused_at, version, next_fire_at, fired_count, created_at, updated_at)
             SELECT u.tenant_id, u.key, u.spec, u.spec_kind, u.tz, u.target, u.target_kind, u.payload,
                    u.policies, u.overlap, u.start_at, u.end_at, u.max_runs, u.jitter_ms, u.description,
                    u.summary, u.labels, u.dst, u.calendar_rules, u.expect, u.state,
                    CASE WHEN u.state = 'paused' THEN u.now END, 1, u.next_fire_at, 0, u.now, u.now
               FROM u ORDER BY u.n ${conflict}
             RETURNING ${returning}),
     rev AS (INSERT INTO ${s}.schedule_revisions (tenant_id, key, schedule_id, version, at, actor, change,
               from_version, state, diff, content)
             SELECT ins.tenant_id, ins.key, ins.id, ins.version, ins.created_at, u.actor, u.change,
                    u.from_version, ins.state, NULL::jsonb, NULL::jsonb
               FROM ins JOIN u ON u.tenant_id = ins.tenant_id AND u.key = ins.key)
     SELECT ${returning === '*' ? '*' : 'id, tenant_id, key'} FROM ins`;
const rows = reqs.map((r, n) => {
  const d = r.draft;
  return {
    n,
    tenant_id: d.tenantId,
    key: d.key,
    spec: d.spec,
    spec_kind: d.specKind,
    tz: d.tz,
    target: d.target,
    target_kind: targetKind(d.target),
    payload: d.payload,
    policies: compactPolicies(d.policies),
    overlap: d.policies.overlap,
    start_at: d.startAt,
    end_at: d.endAt,
    max_runs: d.maxRuns,
    jitter_ms: d.jitterMs,
    description: d.description,
    summary: d.summary,
    labels: d.labels,
    dst: d.dst,
    calendar_rules: d.calendarRules,
    expect: d.expect,
    state: 'active',
    next_fire_at: r.nextFireAt,
    now: r.now,
    actor: null,
    change: 'created',
    from_version: null,
  };
});
const jsonParams = [JSON.stringify(rows)];
const narrow = 'id, tenant_id, key, version, state, created_at';
const forms: [string, string, unknown[]][] = [
  ['arrays, ON CONFLICT, RETURNING *', oldSql, oldParams],
  ['json, plain, RETURNING ids', jsonSql('', narrow), jsonParams],
  [
    'jsonb, ON CONFLICT, RETURNING ids',
    jsonSql('ON CONFLICT (tenant_id, key) DO NOTHING', narrow, 'jsonb_to_recordset($1::jsonb)'),
    jsonParams,
  ],
  ['jsonb, plain, RETURNING ids', jsonSql('', narrow, 'jsonb_to_recordset($1::jsonb)'), jsonParams],
];
const c = new pg.Client({ connectionString: URL });
await c.connect();
await c.query('SET jit = off');
const results = new Map<string, { ms: number[]; exec: number[]; wal: string }>();
if (process.env.SHOW) {
  for (const [name, sql, params] of forms) {
    await c.query('BEGIN');
    const { rows: plan } = await c.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
    await c.query('ROLLBACK');
    console.log('### ' + name + '\n' + plan.map((r) => r['QUERY PLAN']).join('\n'));
  }
}
for (let round = 0; round < Number(process.env.ROUNDS ?? 7); round++) {
  for (const [name, sql, params] of forms) {
    await c.query('BEGIN');
    const { rows: plan } = await c.query(
      `EXPLAIN (ANALYZE, BUFFERS, WAL, TIMING OFF, FORMAT JSON) ${sql}`,
      params,
    );
    await c.query('ROLLBACK');
    // and the statement itself, timed from here (round trip, result transfer)
    await c.query('BEGIN');
    const t0 = performance.now();
    await c.query(sql, params);
    const ms = performance.now() - t0;
    await c.query('ROLLBACK');
    const p = (plan[0] as Record<string, unknown>)['QUERY PLAN'] as [
      { 'Execution Time': number; Plan: Record<string, unknown> },
    ];
    const r = results.get(name) ?? { ms: [], exec: [], wal: '' };
    r.ms.push(ms);
    r.exec.push(p[0]['Execution Time']);
    let recs = 0,
      bytes = 0,
      fpi = 0;
    const walk = (n: Record<string, unknown>) => {
      if (n['Node Type'] === 'ModifyTable') {
        recs += n['WAL Records'] as number;
        bytes += n['WAL Bytes'] as number;
        fpi += n['WAL FPI'] as number;
      }
      for (const ch of (n.Plans as Record<string, unknown>[] | undefined) ?? []) walk(ch);
    };
    walk(p[0].Plan);
    r.wal = `WAL (inserts) records ${recs}, bytes ${bytes} (${(bytes / N).toFixed(0)} per schedule), fpi ${fpi}`;
    results.set(name, r);
  }
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
for (const [name, r] of results)
  console.log(
    `${name}: execution ${med(r.exec).toFixed(1)} ms (median of ${r.exec.length}), round trip ${med(r.ms).toFixed(1)} ms; ${r.wal}`,
  );
await c.end();
await store.close();
await admin.query(`DROP SCHEMA IF EXISTS ${S} CASCADE`);
await admin.end();
