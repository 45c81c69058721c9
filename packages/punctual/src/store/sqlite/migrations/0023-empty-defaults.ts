// Migration 0023: a schedule row keeps an empty text in the columns that hold their default (the zone UTC,
// policies and labels with no setting, and `overlap`, which no statement reads: the policies hold it), as
// PostgreSQL's migration 26 keeps NULL. The columns stay NOT NULL (SQLite drops no constraint in place, and
// rebuilding `schedules` would move every row for nothing): an empty text costs the record what a NULL does,
// a header byte and no data, so a schedule takes 12 bytes less (the zone 3, policies 2, labels 2, overlap 5).
// The store's writes (store/common/stored-defaults.ts) and the shared decoding make the change; this step
// changes no row and no table. It exists so that a release before it, which would read an empty zone as a
// zone and an empty text as JSON, refuses a database written by this one (SCHEMA_TOO_NEW) instead of
// misreading it. Rows already there keep their values, which read the same. Append-only: once released, this
// text never changes.

export const name = 'empty-defaults';

export const sql = `
SELECT 1;
`;
