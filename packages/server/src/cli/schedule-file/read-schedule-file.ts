// Reads the text of a schedules file (YAML, or JSON) into its entries, each with the line it starts on, and
// refuses a file that cannot be applied as a whole: malformed text (FILE_INVALID with line and column), a
// top-level section other than the known ones (FILE_SECTION_UNKNOWN), a key named twice (FILE_DUPLICATE_KEY,
// with both lines). Judging one entry's content is not its work (see schedule-content.ts); it does no I/O.

import { PunctualError } from 'punctual';
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { jsonErrorPosition, positionOf } from './json-error-position.js';
import { SCHEDULE_FILE_SECTIONS, type ScheduleFileFormat } from './schedule-file-format.js';

/** One entry of `schedules:` as written, with where it is. */
export interface FileEntry {
  /** Its place in the list, from 0. */
  index: number;
  /** The line the entry starts on (1-based). */
  line: number;
  /** The entry as written (an object for a well-formed entry). */
  value: unknown;
}

/** The format of a file: by its extension, else JSON when its text starts with `{`. */
export function formatOf(path: string, text: string): ScheduleFileFormat {
  if (/\.json$/i.test(path)) return 'json';
  if (/\.ya?ml$/i.test(path)) return 'yaml';
  return text.trimStart().startsWith('{') ? 'json' : 'yaml';
}

function invalid(message: string, line: number, column: number, extra: Record<string, unknown> = {}) {
  return new PunctualError('FILE_INVALID', `line ${line}, column ${column}: ${message}`, {
    line,
    column,
    ...extra,
  });
}

/** The entries of a schedules file; throws FILE_INVALID, FILE_SECTION_UNKNOWN or FILE_DUPLICATE_KEY. */
export function readScheduleFile(text: string, format: ScheduleFileFormat): FileEntry[] {
  if (format === 'json') {
    const at = jsonErrorPosition(text);
    if (at !== undefined) throw invalid('not valid JSON', at.line, at.column);
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const lineOf = (node: Node | null | undefined): number =>
    node?.range ? lines.linePos(node.range[0]).line : 1;
  const first = doc.errors[0];
  if (first !== undefined) {
    const { line, col } = lines.linePos(first.pos[0]);
    const why = first.message.split('\n')[0] ?? '';
    // `spec: */5 * * * *` reads as YAML aliases: say what to do about the one mistake every cron user makes.
    const hint = /alias/i.test(why) ? ' (a value starting with * must be quoted: spec: "*/5 * * * *")' : '';
    throw invalid(`not valid YAML: ${why}${hint}`, line, col, { yamlCode: first.code });
  }
  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === null)) return [];
  if (!isMap(root)) {
    const at = positionOf(text, root.range?.[0] ?? 0);
    throw invalid('the file must hold a mapping such as `schedules: [...]`', at.line, at.column);
  }
  let list: Node | null = null;
  for (const pair of root.items) {
    const name = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (!(SCHEDULE_FILE_SECTIONS as readonly string[]).includes(name)) {
      const line = lineOf(pair.key as Node);
      throw new PunctualError(
        'FILE_SECTION_UNKNOWN',
        `line ${line}: unknown section "${name}"; a schedules file has ${SCHEDULE_FILE_SECTIONS.map((s) => `"${s}:"`).join(', ')}`,
        { section: name, line },
      );
    }
    list = pair.value as Node | null;
  }
  if (list === null || (isScalar(list) && list.value === null)) return [];
  if (!isSeq(list)) {
    const at = positionOf(text, list.range?.[0] ?? 0);
    throw invalid('"schedules" must be a list of schedules', at.line, at.column);
  }
  const entries: FileEntry[] = [];
  const keyLines = new Map<string, number>();
  list.items.forEach((item, index) => {
    const node = item as Node | null;
    const line = lineOf(node);
    if (!isMap(node)) {
      const at = positionOf(text, node?.range?.[0] ?? 0);
      throw invalid(
        `schedule ${index + 1} must be a mapping with a key, spec and target`,
        at.line,
        at.column,
      );
    }
    const value = node.toJSON() as Record<string, unknown>;
    if (typeof value.key === 'string') {
      const seen = keyLines.get(value.key);
      if (seen !== undefined) {
        throw new PunctualError(
          'FILE_DUPLICATE_KEY',
          `the key "${value.key}" is named twice, on lines ${seen} and ${line}`,
          { key: value.key, lines: [seen, line] },
        );
      }
      keyLines.set(value.key, line);
    }
    entries.push({ index, line, value });
  });
  return entries;
}
