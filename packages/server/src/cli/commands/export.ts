// `punctual export [-o file] [--format yaml|json]`: writes the API key's tenant's schedules as a schedules
// file, the format `punctual apply` reads, so that applying an export plans no change. It owns choosing the
// format and where the text goes; turning a schedule into an entry is schedule-content.ts's work.

import { writeFileSync } from 'node:fs';
import { ArgumentError, EXIT_OK, type CliIo } from '../io.js';
import { withClient, type ClientArgs } from '../http-client.js';
import { viewToEntry } from '../schedule-file/schedule-content.js';
import type { ScheduleFileFormat } from '../schedule-file/schedule-file-format.js';
import { writeScheduleFile } from '../schedule-file/write-schedule-file.js';
import { fetchAllSchedules } from './apply.js';

export interface ExportArgs extends ClientArgs {
  /** The file to write; default: standard output. */
  output?: string | undefined;
  /** yaml or json; default: by the extension of --output, else yaml. */
  format?: string | undefined;
  /** Writes the file. Default: fs. */
  writeFile?: ((path: string, text: string) => void) | undefined;
}

function formatOf(args: ExportArgs): ScheduleFileFormat {
  if (args.format !== undefined) {
    if (args.format !== 'yaml' && args.format !== 'json') {
      throw new ArgumentError(`--format must be yaml or json (got "${args.format}")`);
    }
    return args.format;
  }
  return args.output !== undefined && /\.json$/i.test(args.output) ? 'json' : 'yaml';
}

export async function exportSchedules(args: ExportArgs, io: CliIo): Promise<number> {
  return withClient({ ...args, json: false }, io, async (api) => {
    const format = formatOf(args);
    const schedules = await fetchAllSchedules(api);
    const text = writeScheduleFile(schedules.map(viewToEntry), format);
    if (args.output === undefined) io.stdout(text);
    else {
      try {
        (args.writeFile ?? ((p: string, t: string) => writeFileSync(p, t)))(args.output, text);
      } catch (e) {
        throw new ArgumentError(`-o: cannot write ${args.output}: ${(e as Error).message}`);
      }
      io.stderr(`punctual: exported ${schedules.length} schedule(s) to ${args.output}\n`);
    }
    return EXIT_OK;
  });
}
