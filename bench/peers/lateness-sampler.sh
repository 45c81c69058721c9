#!/bin/bash
# Samples, once a minute while the punctual-postgres peer's schema exists, the lateness of the runs due in the
# minute that ended a minute ago (`started_at - scheduled_for`: count due, count started, p50, p99, max in ms),
# the runs started in the last minute, the schedules loaded, then pg_stat_bgwriter and a vmstat line. Run it
# beside a long peers run (ten million schedules), whose own result comes only at the end and only for its
# measured minutes: this is the minute-by-minute record of the load and of the catch-up after it.
# Usage: PUNCTUAL_BENCH_PG_URL=postgres://... bash bench/peers/lateness-sampler.sh > minutes.log
# Reads only; stop it with Ctrl-C.
URL=${PUNCTUAL_BENCH_PG_URL:-postgres://postgres@127.0.0.1:5432/test}
S=bench_peers_punctual
# No parallel workers: at ten million a parallel scan of runs every minute took CPU from what it measures.
P="env PGOPTIONS=-cmax_parallel_workers_per_gather=0 psql $URL -At"
while true; do
  if [ "$($P -c "select count(*) from pg_namespace where nspname='$S'")" = "1" ]; then
    $P -c "
    with m as (select (extract(epoch from now())::bigint/60 - 2)*60000 as lo)
    select to_char(to_timestamp(m.lo/1000) at time zone 'UTC','HH24:MI') as due_min,
      count(*) as due, count(started_at) as started,
      percentile_disc(0.5) within group (order by started_at - scheduled_for) as p50,
      percentile_disc(0.99) within group (order by started_at - scheduled_for) as p99,
      max(started_at - scheduled_for) as max,
      (select count(*) from $S.runs
        where started_at >= (extract(epoch from now())::bigint*1000 - 60000)) as started_last_min,
      (select count(*) from $S.schedules) as schedules
    from m, $S.runs r
    where r.tenant_id = 'default' and r.scheduled_for >= m.lo and r.scheduled_for < m.lo + 60000
    group by m.lo" 2>&1 | sed "s/^/$(date -u +%H:%M:%S) /"
    $P -c "select 'bgw', buffers_checkpoint, buffers_clean, buffers_backend from pg_stat_bgwriter" |
      sed "s/^/$(date -u +%H:%M:%S) /"
    vmstat 1 2 | tail -1 | sed "s/^/$(date -u +%H:%M:%S) vm /"
  fi
  sleep 55
done
