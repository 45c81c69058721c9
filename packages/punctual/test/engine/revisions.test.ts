// Revisions through the library: the actor (library by default, or the caller's), a rollback restoring an
// earlier version's exact content as a new version, refused for a version of a deleted schedule that had the
// same key, and a dry run that writes nothing.

import { afterEach, describe, expect, it } from 'vitest';
import { contentOf } from '../../src/store/revision-record.js';
import { harness, type Harness } from '../support/harness.js';

let h: Harness;
afterEach(async () => h?.close());

const target = { handler: 't' };

describe('revisions through the library', () => {
  it('records the actor, rolls back exactly, and refuses versions of an earlier schedule with the key', async () => {
    h = await harness();
    h.s.handle('t', () => {});
    const v1 = await h.s.put({
      key: 'k',
      spec: '@every 90m',
      target,
      payload: { n: 1 },
      policies: { priority: 4, retry: { maxAttempts: 2 } },
      jitter: '5s',
      labels: { a: 'b' },
      summary: 'one',
    });
    await h.s.put({ key: 'k', spec: '0 9 * * *', target, payload: { n: 2 } }, { actor: 'deploy-bot' });
    const page = await h.s.history('k');
    expect(page.items.map((r) => [r.version, r.change, r.actor])).toEqual([
      [2, 'updated', 'deploy-bot'],
      [1, 'created', 'library'],
    ]);

    const back = await h.s.rollback('k', 1, { actor: 'ops' });
    expect(back).toMatchObject({ changed: true, fromVersion: 1, schedule: { version: 3 } });
    expect(contentOf(back.schedule)).toEqual(contentOf(v1.schedule));
    expect(await h.s.revision('k', 3)).toMatchObject({ change: 'rolledBack', fromVersion: 1, actor: 'ops' });

    await h.s.delete('k');
    await h.s.put({ key: 'k', spec: '0 9 * * *', target });
    await expect(h.s.rollback('k', 1)).resolves.toMatchObject({ changed: false });
    await expect(h.s.rollback('k', 2)).rejects.toMatchObject({ code: 'REVISION_UNKNOWN' });
    await expect(h.s.revision('k', 0.5)).rejects.toMatchObject({ code: 'REVISION_UNKNOWN' });
  });

  it('dry-runs a put without writing', async () => {
    h = await harness();
    h.s.handle('t', () => {});
    await h.s.put({ key: 'k', spec: '0 9 * * *', target });
    const dry = await h.s.dryRun({ key: 'k', spec: '0 10 * * *', target });
    expect(dry).toMatchObject({ outcome: 'updated', currentVersion: 1, nextVersion: 2 });
    expect(dry.nextAfter[0]).toBe(Date.parse('2026-01-05T10:00:00.000Z'));
    expect((await h.s.get('k'))?.version).toBe(1);
    expect((await h.s.history('k')).items).toHaveLength(1);
    await expect(h.s.dryRun({ key: 'k', spec: 'nope', target })).rejects.toMatchObject({
      code: 'SPEC_INVALID',
    });
  });
});
