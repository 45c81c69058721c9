// Migration 17: compact storage and counted schedules. A revision row no longer stores what can be derived: the content
// of the schedule's current version (NULL: read from the schedule row; written out when a put replaces that
// version or a delete removes the row) and a creation's diff (NULL: every field from nothing, recomputed from
// the content). The columns become nullable and the derivable parts of existing rows are cleared. Schedules are
// counted by tenant and state in schedule_counts, kept by triggers (per statement for inserts and deletes, so
// a bulk insert adds once per tenant and state; per row for a change of state), so the stats and the quota
// read a few rows instead of counting the schedules. Each writing session adds into one of 8 slots of a
// (tenant, state) (by its backend pid), so concurrent creates in one tenant do not queue on a single row;
// rows are always locked in (tenant, state, slot) order within a statement. A contract
// step: older code reads these columns as always set, and reads schedule policies written out in full, which
// this release keeps compact. Append-only: once released, this text never changes. `s` is the
// already-quoted schema name.

export const name = 'compact-storage';

export function sql(s: string): string {
  return `
ALTER TABLE ${s}.schedule_revisions ALTER COLUMN diff DROP NOT NULL, ALTER COLUMN content DROP NOT NULL;

UPDATE ${s}.schedule_revisions SET diff = NULL WHERE change = 'created';

UPDATE ${s}.schedule_revisions AS r SET content = NULL
  FROM ${s}.schedules AS c
 WHERE r.change <> 'deleted' AND c.id = r.schedule_id AND c.version = r.version;

-- Schedules by tenant and state (summed over the slots): what stats() and countSchedules() read.
CREATE TABLE ${s}.schedule_counts (
  tenant_id  TEXT     COLLATE "C" NOT NULL,
  state      TEXT     COLLATE "C" NOT NULL,
  slot       SMALLINT NOT NULL,
  n          BIGINT   NOT NULL,
  PRIMARY KEY (tenant_id, state, slot)
);

INSERT INTO ${s}.schedule_counts (tenant_id, state, slot, n)
  SELECT tenant_id, state, 0, count(*) FROM ${s}.schedules GROUP BY tenant_id, state;

CREATE FUNCTION ${s}.schedule_counts_add() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO ${s}.schedule_counts AS c (tenant_id, state, slot, n)
      SELECT tenant_id, state, pg_backend_pid() % 8, count(*) FROM new_rows
       GROUP BY tenant_id, state ORDER BY tenant_id, state
      ON CONFLICT (tenant_id, state, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO ${s}.schedule_counts AS c (tenant_id, state, slot, n)
      SELECT tenant_id, state, pg_backend_pid() % 8, -count(*) FROM old_rows
       GROUP BY tenant_id, state ORDER BY tenant_id, state
      ON CONFLICT (tenant_id, state, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSE
    INSERT INTO ${s}.schedule_counts AS c (tenant_id, state, slot, n)
      SELECT t, st, pg_backend_pid() % 8, d
        FROM (VALUES (OLD.tenant_id, OLD.state, -1), (NEW.tenant_id, NEW.state, 1)) AS v(t, st, d)
       ORDER BY t, st
      ON CONFLICT (tenant_id, state, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER schedules_count_insert AFTER INSERT ON ${s}.schedules
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${s}.schedule_counts_add();
CREATE TRIGGER schedules_count_delete AFTER DELETE ON ${s}.schedules
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${s}.schedule_counts_add();
CREATE TRIGGER schedules_count_state AFTER UPDATE OF tenant_id, state ON ${s}.schedules
  FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state OR OLD.tenant_id IS DISTINCT FROM NEW.tenant_id)
  EXECUTE FUNCTION ${s}.schedule_counts_add();
`;
}
