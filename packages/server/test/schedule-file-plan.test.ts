// The pure parts of `punctual apply`: reading a schedules file (entries and their lines; FILE_INVALID with
// line and column for YAML and JSON; FILE_SECTION_UNKNOWN; FILE_DUPLICATE_KEY with both lines), the plan
// (defaults the service fills in, durations, offsets and key order are no change; field-by-field updates; a
// refused entry keeps its key from --prune) and its printing. No service, no clock.

import { DEFAULT_POLICIES, isPunctualError } from 'punctual';
import { describe, expect, it } from 'vitest';
import { jsonErrorPosition } from '../src/cli/schedule-file/json-error-position.js';
import { computePlan, diffValues } from '../src/cli/schedule-file/plan-changes.js';
import { planText } from '../src/cli/schedule-file/print-plan.js';
import { readScheduleFile } from '../src/cli/schedule-file/read-schedule-file.js';
import { entryContent, viewToEntry, type ScheduleView } from '../src/cli/schedule-file/schedule-content.js';

const NOW = Date.UTC(2026, 0, 1);
const HOOK = { webhook: { url: 'https://example.com/hook' } };

function view(key: string, extra: Partial<ScheduleView> = {}): ScheduleView {
  return {
    key,
    spec: '0 9 * * *',
    tz: 'UTC',
    target: HOOK,
    payload: null,
    policies: DEFAULT_POLICIES,
    startAt: null,
    endAt: null,
    maxRuns: null,
    jitterMs: 0,
    summary: null,
    labels: {},
    state: 'active',
    version: 3,
    ...extra,
  };
}

function thrown(fn: () => unknown): { code: string; message: string; details: unknown } {
  try {
    fn();
  } catch (e) {
    if (isPunctualError(e)) return { code: e.code, message: e.message, details: e.details };
    throw e;
  }
  throw new Error('did not throw');
}

describe('reading a schedules file', () => {
  it('gives each entry with the line it starts on; an empty file or list has none', () => {
    const entries = readScheduleFile(
      '# mine\nschedules:\n  - key: a\n    spec: "0 9 * * *"\n\n  - {key: b, spec: "@daily"}\n',
      'yaml',
    );
    expect(entries.map((e) => [e.index, e.line, (e.value as { key: string }).key])).toEqual([
      [0, 3, 'a'],
      [1, 6, 'b'],
    ]);
    expect(readScheduleFile('', 'yaml')).toEqual([]);
    expect(readScheduleFile('schedules:\n', 'yaml')).toEqual([]);
    const json = readScheduleFile('{"schedules": [\n  {"key": "a"},\n  {"key": "b"}\n]}', 'json');
    expect(json.map((e) => e.line)).toEqual([2, 3]);
  });

  it('refuses malformed text with its line and column, an unknown section and a key named twice', () => {
    expect(thrown(() => readScheduleFile('schedules:\n  - key: [a\n', 'yaml'))).toMatchObject({
      code: 'FILE_INVALID',
      details: { line: 3, column: 1 },
    });
    expect(thrown(() => readScheduleFile('{"schedules": [}', 'json'))).toMatchObject({
      code: 'FILE_INVALID',
      message: 'line 1, column 16: not valid JSON',
    });
    expect(thrown(() => readScheduleFile('- a\n', 'yaml'))).toMatchObject({ code: 'FILE_INVALID' });
    expect(thrown(() => readScheduleFile('schedules: {a: 1}\n', 'yaml'))).toMatchObject({
      code: 'FILE_INVALID',
      message: 'line 1, column 12: "schedules" must be a list of schedules',
    });
    expect(thrown(() => readScheduleFile('schedules: []\nexpectations: []\n', 'yaml'))).toMatchObject({
      code: 'FILE_SECTION_UNKNOWN',
      details: { section: 'expectations', line: 2 },
    });
    expect(
      thrown(() => readScheduleFile('schedules:\n  - key: x\n  - key: y\n  - key: x\n', 'yaml')),
    ).toMatchObject({ code: 'FILE_DUPLICATE_KEY', details: { key: 'x', lines: [2, 4] } });
  });

  it('locates the first JSON mistake', () => {
    expect(jsonErrorPosition('{"a": [1, 2]}')).toBeUndefined();
    expect(jsonErrorPosition('{"a": 1,\n}')).toEqual({ line: 2, column: 1 });
    expect(jsonErrorPosition('{"a": tru}')).toEqual({ line: 1, column: 10 });
    expect(jsonErrorPosition('{"a": 1} x')).toEqual({ line: 1, column: 10 });
  });
});

describe('the plan', () => {
  const entries = (...values: unknown[]) => values.map((value, index) => ({ index, line: index + 2, value }));

  it('counts no default, duration, offset or key order as a change', () => {
    const plan = computePlan({
      entries: entries(
        { key: 'a', spec: '0 9 * * *', target: HOOK },
        {
          key: 'b',
          spec: '0 9 * * *',
          tz: 'UTC',
          target: { webhook: { url: 'https://example.com/hook' } },
          policies: { retry: { maxAttempts: 3 }, overlap: 'allow' },
          startAt: '2026-02-01T10:00:00+01:00',
          jitter: '30s',
          payload: { y: 1, x: 2 },
          labels: { b: '2', a: '1' },
        },
      ),
      current: [
        view('a'),
        view('b', {
          startAt: '2026-02-01T09:00:00.000Z',
          jitterMs: 30_000,
          payload: { x: 2, y: 1 },
          labels: { a: '1', b: '2' },
        }),
      ],
      now: NOW,
      prune: false,
    });
    expect(plan.changes.map((c) => c.kind)).toEqual(['unchanged', 'unchanged']);
    expect(plan.counts).toEqual({ create: 0, update: 0, delete: 0, unchanged: 2 });
  });

  it('lists updates field by field with the version it saw, creates, deletes with --prune only', () => {
    const input = {
      entries: entries(
        {
          key: 'a',
          spec: '0 10 * * *',
          target: HOOK,
          policies: { retry: { maxAttempts: 5 } },
          state: 'paused',
        },
        { key: 'new', spec: '@daily', target: HOOK },
        { key: 'kept', spec: '0 0 31 2 *', target: HOOK },
      ),
      current: [view('a'), view('gone'), view('kept')],
      now: NOW,
    };
    const plan = computePlan({ ...input, prune: true });
    expect(plan.changes).toMatchObject([
      {
        kind: 'update',
        key: 'a',
        line: 2,
        version: 3,
        contentChanges: true,
        stateChange: 'pause',
        fields: [
          { field: 'policies.retry.maxAttempts', from: 3, to: 5 },
          { field: 'spec', from: '0 9 * * *', to: '0 10 * * *' },
          { field: 'state', from: 'active', to: 'paused' },
        ],
      },
      { kind: 'create', key: 'new', line: 3 },
      { kind: 'delete', key: 'gone', version: 3 },
    ]);
    // The refused entry still names "kept": --prune leaves it alone.
    expect(plan.refused).toEqual([
      expect.objectContaining({ line: 4, key: 'kept', code: 'SPEC_NEVER_FIRES', field: 'spec' }),
    ]);
    expect(planText(plan)).toBe(
      '~ update a  (line 2)\n' +
        '    policies.retry.maxAttempts: 3 -> 5\n' +
        '    spec: "0 9 * * *" -> "0 10 * * *"\n' +
        '    state: "active" -> "paused"\n' +
        '+ create new  (line 3)\n' +
        '- delete gone  (not in the file; --prune)\n' +
        `! refused kept  (line 4): SPEC_NEVER_FIRES: ${plan.refused[0]!.message}\n` +
        'Plan: 1 to create, 1 to update, 1 to delete, 0 unchanged; 1 refused.\n',
    );
    const noPrune = computePlan({ ...input, prune: false });
    expect(noPrune.changes.map((c) => c.kind)).toEqual(['update', 'create']);
    expect(noPrune.unnamed).toEqual(['gone']);
  });

  it('refuses a field the PUT body does not have, and leaves the state of a completed schedule alone', () => {
    const plan = computePlan({
      entries: entries(
        { key: 'a', spec: '0 9 * * *', target: HOOK, sepc: 'x' },
        { key: 'done', spec: '0 9 * * *', target: HOOK, state: 'active' },
      ),
      current: [view('done', { state: 'completed' })],
      now: NOW,
      prune: false,
    });
    expect(plan.refused).toMatchObject([{ line: 2, code: 'SCHEDULE_INVALID', field: 'sepc' }]);
    expect(plan.changes).toMatchObject([{ kind: 'unchanged', key: 'done' }]);
  });

  it('keeps a schedule whose endAt has passed unchanged, and refuses changing it', () => {
    const saved = Date.UTC(2025, 4, 1);
    const entry = { key: 'once', spec: '0 9 * * *', endAt: '2025-06-01T00:00:00Z', target: HOOK };
    // Refused when judged now: no occurrence is left before endAt.
    expect(thrown(() => entryContent(entry, NOW)).code).toBe('SPEC_NEVER_FIRES');
    const stored = view('once', {
      endAt: '2025-06-01T00:00:00.000Z',
      state: 'completed',
      updatedAt: new Date(saved).toISOString(),
    });
    const same = computePlan({ entries: entries(entry), current: [stored], now: NOW, prune: false });
    expect(same.changes).toMatchObject([{ kind: 'unchanged', key: 'once' }]);
    expect(same.refused).toEqual([]);
    const changed = computePlan({
      entries: entries({ ...entry, payload: { late: true } }),
      current: [stored],
      now: NOW,
      prune: false,
    });
    expect(changed.refused).toMatchObject([{ key: 'once', code: 'SPEC_NEVER_FIRES' }]);
  });

  it('diffs nested values by path and shows an absent side', () => {
    expect(diffValues('', { t: { w: { url: 'a' } } }, { t: { s: { source: 'x' } } })).toEqual([
      { field: 't.s', from: undefined, to: { source: 'x' } },
      { field: 't.w', from: { url: 'a' }, to: undefined },
    ]);
  });

  it('exports the shortest entry that plans back to no change', () => {
    const v = view('x', { policies: { ...DEFAULT_POLICIES, priority: 5 }, jitterMs: 500, state: 'paused' });
    const entry = viewToEntry(v);
    expect(entry).toEqual({
      key: 'x',
      spec: '0 9 * * *',
      tz: 'UTC',
      target: HOOK,
      policies: { priority: 5 },
      jitter: 500,
      state: 'paused',
    });
    const plan = computePlan({ entries: entries(entry), current: [v], now: NOW, prune: false });
    expect(plan.changes.map((c) => c.kind)).toEqual(['unchanged']);
  });
});

describe('docs/schedules-as-code.md', () => {
  it('shows a file the reader and the library accept whole', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(new URL('../../../docs/schedules-as-code.md', import.meta.url), 'utf8');
    const yaml = /```yaml\n([\s\S]*?)```/.exec(doc)![1]!;
    const plan = computePlan({
      entries: readScheduleFile(yaml, 'yaml'),
      current: [],
      now: NOW,
      prune: false,
    });
    expect(plan.refused).toEqual([]);
    expect(plan.changes.map((c) => [c.kind, c.key])).toEqual([
      ['create', 'reports.daily'],
      ['create', 'sync.rates'],
    ]);
  });
});
