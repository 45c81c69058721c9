// `punctual import crontab <file> [-o schedules.yaml] [--tz Zone] [--system]`: writes a crontab as a
// schedules file for `punctual apply`, and reports on stderr (and in the file's heading comment) each line
// that has no meaning here. It talks to no service and judges no schedule: `apply` does, with the line of
// the written file. The conversion itself is crontab/crontab-to-schedules.ts.

import { readFileSync, writeFileSync } from 'node:fs';
import { ArgumentError, EXIT_OK, reportError, type CliIo } from '../io.js';
import { crontabToSchedules } from '../crontab/crontab-to-schedules.js';
import { looksLikeSystemCrontab } from '../crontab/parse-crontab.js';
import { writeScheduleFile } from '../schedule-file/write-schedule-file.js';

export interface ImportCrontabArgs {
  /** The crontab to read. */
  file: string;
  /** Where to write the schedules file; default: standard output. */
  output?: string | undefined;
  /** The zone of the lines before any CRON_TZ= or TZ= (default UTC). */
  tz?: string | undefined;
  /** The system format (a user field before the command); default: by the path or the header. */
  system?: boolean | undefined;
  /** yaml (default) or json. */
  format?: string | undefined;
  readFile?: ((path: string) => string) | undefined;
  writeFile?: ((path: string, text: string) => void) | undefined;
}

/** The heading comment of a converted file: where it came from and what was not converted. */
export function importComment(
  file: string,
  system: boolean,
  tz: string,
  notes: readonly { line: number; note: string }[],
): string {
  const lines = [
    `Converted from the ${system ? 'system' : 'user'} crontab ${file} by punctual import crontab.`,
    `Lines without CRON_TZ= or TZ= above them are read in ${tz}.`,
  ];
  if (notes.length > 0) lines.push('', ...notes.map((n) => `line ${n.line}: ${n.note}`));
  return lines.join('\n');
}

export async function importCrontab(args: ImportCrontabArgs, io: CliIo): Promise<number> {
  try {
    const format =
      args.format ?? (args.output !== undefined && /\.json$/i.test(args.output) ? 'json' : 'yaml');
    if (format !== 'yaml' && format !== 'json') {
      throw new ArgumentError(`--format must be yaml or json (got "${format}")`);
    }
    let text: string;
    try {
      text = (args.readFile ?? ((p: string) => readFileSync(p, 'utf8')))(args.file);
    } catch (e) {
      throw new ArgumentError(`cannot read ${args.file}: ${(e as Error).message}`);
    }
    const system = args.system ?? looksLikeSystemCrontab(args.file, text);
    const tz = args.tz ?? 'UTC';
    const { entries, notes } = crontabToSchedules(text, { tz, system });
    const out = writeScheduleFile(entries, format, importComment(args.file, system, tz, notes));
    if (args.output === undefined) io.stdout(out);
    else {
      try {
        (args.writeFile ?? ((p: string, t: string) => writeFileSync(p, t)))(args.output, out);
      } catch (e) {
        throw new ArgumentError(`-o: cannot write ${args.output}: ${(e as Error).message}`);
      }
    }
    for (const n of notes) io.stderr(`punctual: line ${n.line}: ${n.note}\n`);
    io.stderr(
      `punctual: ${entries.length} schedule(s) from ${args.file}` +
        `${args.output === undefined ? '' : ` written to ${args.output}`}; ` +
        `review, then: punctual apply -f ${args.output ?? 'FILE'}\n`,
    );
    return EXIT_OK;
  } catch (e) {
    return reportError(e, io, false);
  }
}
