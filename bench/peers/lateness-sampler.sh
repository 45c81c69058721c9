#!/bin/bash
# Samples, once a minute while the punctual-postgres peer's schema exists, the lateness of the runs due in the
# minute that ended a minute ago (`started_at - scheduled_for` of those finished: count finished, count
# started, p50, p99, max in ms), the runs pending (scheduled and due by that minute's end, or running), the
# schedules loaded (the statistics' live rows, approximate during a load), then per table (schedules, runs)
# its updates, HOT updates, dead rows and autovacuums, pg_stat_bgwriter and a vmstat line. Each query is an
# index range (runs_tenant_time, runs_claim, runs_lease): at ten million schedules the earlier sampler's
# scans of runs and count of schedules took 5 s of a core every minute. Run it beside a long peers run (ten
# million schedules), whose own result comes only at the end and only for its measured minutes: this is the
# minute-by-minute record of the load and of the catch-up after it.
# Usage: PUNCTUAL_BENCH_PG_URL=postgres://... bash bench/peers/lateness-sampler.sh > minutes.log
# Reads only; stop it with Ctrl-C.
URL=${PUNCTUAL_BENCH_PG_URL:-postgres://postgres@127.0.0.1:5432/test}
S=bench_peers_punctual
# No parallel workers: at ten million a parallel scan of runs every minute took CPU from what it measures.
P="env PGOPTIONS=-cmax_parallel_workers_per_gather=0 psql $URL -At"
while true; do
  if [ "$($P -c "select count(*) from pg_namespace where nspname='$S'")" = "1" ]; then
    $P -c "
    with m as (select (extract(epoch from now())::bigint/60 - 2)*60000 as lo),
    f as (select r.started_at - r.scheduled_for as late, r.started_at from m, $S.runs r
           where r.tenant_id = 'default' and r.state not in ('scheduled', 'running')
             and r.scheduled_for >= m.lo and r.scheduled_for < m.lo + 60000)
    select to_char(to_timestamp(m.lo/1000) at time zone 'UTC','HH24:MI') as due_min,
      (select count(*) from f) as finished, (select count(started_at) from f) as started,
      (select percentile_disc(0.5) within group (order by late) from f) as p50,
      (select percentile_disc(0.99) within group (order by late) from f) as p99,
      (select max(late) from f) as max,
      (select count(*) from $S.runs where state = 'scheduled' and priority = 0 and due_at < m.lo + 60000)
        + (select count(*) from $S.runs where state = 'running') as pending,
      (select n_live_tup from pg_stat_user_tables where schemaname = '$S' and relname = 'schedules')
        as schedules
    from m" 2>&1 | sed "s/^/$(date -u +%H:%M:%S) /"
    # Per table: updates, HOT updates, dead rows, autovacuums so far, and whether one is running now.
    $P -c "select 'tbl', relname, n_tup_upd, n_tup_hot_upd, n_dead_tup, autovacuum_count,
             (select count(*) from pg_stat_progress_vacuum v where v.relid = t.relid) as vacuuming
             from pg_stat_user_tables t where schemaname = '$S' and relname in ('schedules', 'runs')
             order by relname" | sed "s/^/$(date -u +%H:%M:%S) /"
    $P -c "select 'bgw', buffers_checkpoint, buffers_clean, buffers_backend from pg_stat_bgwriter" |
      sed "s/^/$(date -u +%H:%M:%S) /"
    vmstat 1 2 | tail -1 | sed "s/^/$(date -u +%H:%M:%S) vm /"
  fi
  sleep 55
done
