// `punctual schedules preview <key>`: a saved schedule's next occurrences as they will really run (its
// calendars and per-occurrence overrides applied), through GET /v1/schedules/{key}/preview. It owns turning
// the answer into lines for people (each instant in UTC and in the schedule's zone, with its notes in words,
// then the dropped candidates with --explain); --json prints the route's body as is. Which occurrences run,
// and why, is the service's decision: it never computes an occurrence itself.

import type { PreviewDropped, PreviewNote } from 'punctual';
import type { z } from 'zod';
import type * as s from '../../http/schemas.js';
import { EXIT_OK, type CliIo } from '../io.js';
import { seg, withClient } from '../http-client.js';
import { printJson } from '../output.js';
import { droppedText, formatInZone, noteText } from './preview.js';
import type { ScheduleKeyArgs } from './schedules.js';

type PreviewJson = z.output<typeof s.previewResult>;
type NoteJson = z.output<typeof s.previewNote>;

export interface SchedulesPreviewArgs extends ScheduleKeyArgs {
  /** 1 to 1000 (the service judges it); default 10. */
  count?: string | number | undefined;
  /** Also list the candidates dropped and why. */
  explain?: boolean | undefined;
}

/** A note of the API's answer (instants as ISO strings) as the library's, to say it in the same words. */
function note(n: NoteJson): PreviewNote {
  return 'from' in n ? ({ ...n, from: Date.parse(n.from) } as PreviewNote) : n;
}

/** The answer for people: the description, one line per occurrence, then what was dropped (--explain). */
export function previewLines(p: PreviewJson, tz: string): string[] {
  const lines = [p.description];
  for (const o of p.occurrences) {
    const notes = o.notes.length === 0 ? '' : `  (${o.notes.map((n) => noteText(note(n))).join('; ')})`;
    lines.push(`${o.at}  ${formatInZone(Date.parse(o.at), tz)} ${tz}${notes}`);
  }
  if (p.occurrences.length === 0) lines.push('(no occurrence from now on)');
  if (p.dropped !== undefined) {
    if (p.dropped.length === 0) lines.push('(nothing dropped)');
    for (const d of p.dropped) lines.push(droppedText({ ...d, at: Date.parse(d.at) } as PreviewDropped));
  }
  return lines;
}

export async function schedulesPreview(args: SchedulesPreviewArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const path = `/v1/schedules/${seg(args.key)}`;
    const query = {
      count: args.count === undefined ? undefined : String(args.count),
      explain: args.explain === true ? 'true' : undefined,
    };
    const { body } = await api.call<PreviewJson>('GET', `${path}/preview`, { query });
    if (args.json === true) {
      printJson(io, body);
      return EXIT_OK;
    }
    const { body: schedule } = await api.call<{ tz: string }>('GET', path);
    io.stdout(`${previewLines(body, schedule.tz).join('\n')}\n`);
    return EXIT_OK;
  });
}
