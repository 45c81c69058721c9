// `punctual describe <spec>`: the spec's description alone, one line (or {"description"} with --json).
// Judging the spec is the library's work; this file only asks and prints. It never reads the clock: `@in`
// specs resolve against io.now().

import { compileSpec } from 'punctual';
import { EXIT_OK, reportError, type CliIo } from '../io.js';

export interface DescribeArgs {
  spec: string;
  tz?: string | undefined;
  json?: boolean | undefined;
}

export async function describe(args: DescribeArgs, io: CliIo): Promise<number> {
  const json = args.json === true;
  try {
    const { description } = compileSpec(args.spec, { tz: args.tz, now: io.now() });
    io.stdout(json ? `${JSON.stringify({ description })}\n` : `${description}\n`);
    return EXIT_OK;
  } catch (e) {
    return reportError(e, io, json);
  }
}
