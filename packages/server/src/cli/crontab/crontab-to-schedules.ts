// Turns a crontab's lines into schedule entries for `punctual apply`: each job a schedule with a readable key
// derived from its command, the original line as its summary, its zone (CRON_TZ= or TZ= above it, else the
// given one) and a `command` target running the line with /bin/sh (or the SHELL= above it) with the
// variables set above it. What has no meaning here (@reboot, MAILTO, the user of the system format) is
// reported with its line, never guessed. Pure: no I/O, no clock.

import { CRON_NICKNAMES } from 'punctual';
import type { ScheduleEntry } from '../schedule-file/schedule-file-format.js';
import { parseCrontab, type CrontabLine } from './parse-crontab.js';

/** Something the conversion reports about a line. */
export interface CrontabNote {
  line: number;
  note: string;
}

export interface CrontabConversion {
  entries: ScheduleEntry[];
  notes: CrontabNote[];
}

/** The command target (run by the command driver): with `shell`, argv is one command line for /bin/sh -c. */
export interface CommandTarget {
  command: {
    argv: string[];
    shell?: boolean;
    cwd?: string;
    env?: Record<string, string>;
    stdin?: string;
    timeoutMs?: number;
  };
}

const KEY_MAX = 200;
const SUMMARY_MAX = 2000;
/** Programs that run the next word: the key names what they run. */
const WRAPPERS = new Set(['env', 'nice', 'ionice', 'nohup', 'exec', 'time', 'sudo', 'command', 'chronic']);
/** Interpreters: the key names their script. */
const INTERPRETERS = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'python',
  'python2',
  'python3',
  'perl',
  'ruby',
  'php',
  'node',
]);
/** Steps before the work that make a poor name. */
const PREAMBLES = new Set(['cd', 'test', '[', '[[', 'true', ':', 'sleep', 'umask', 'export', 'source', '.']);

/** A key's text from a word: lower case letters, digits and . _ - only. */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9_]+/, '')
    .replace(/[-.]+$/, '')
    .slice(0, KEY_MAX - 10);
}

const baseName = (word: string): string =>
  (word.split('/').pop() ?? word).replace(/\.(sh|bash|py|pl|rb|php|js|mjs)$/, '');

/** Names for a command, best first: its program (or script), then the program and its first argument. */
export function keyCandidates(command: string): string[] {
  // Redirections (`> /var/log/x 2>&1`, `< in`) name files, not the work.
  const plain = command.replace(/\d*[<>]+&?\d*\s*[^\s;|&()<>]*/g, ' ');
  for (const segment of plain.split(/&&|\|\||[;|()]/)) {
    const words = segment
      .trim()
      .split(/\s+/)
      .filter((w) => w !== '');
    let i = 0;
    while (i < words.length) {
      const w = words[i] as string;
      // Assignments, options, a wrapper's numbers (`nice -n 10`) and the wrappers themselves.
      if (/^[A-Za-z_][A-Za-z0-9_]*=|^-|^\d+[smhd]?$/.test(w) || WRAPPERS.has(baseName(w))) i++;
      else if (baseName(w) === 'timeout') i += 2;
      else break;
    }
    const program = words[i];
    if (program === undefined || PREAMBLES.has(program)) continue;
    let name = baseName(program);
    let rest = words.slice(i + 1).filter((w) => !w.startsWith('-'));
    if (INTERPRETERS.has(name) && rest[0] !== undefined && !/^['"]/.test(rest[0])) {
      name = baseName(rest[0]);
      rest = rest.slice(1);
    }
    const first = slug(name);
    if (first === '') continue;
    const arg = rest[0] === undefined ? '' : slug(baseName(rest[0]));
    return arg === '' ? [first] : [first, `${first}-${arg}`];
  }
  return [];
}

/** A key no entry has yet: the first free candidate, else the first with -2, -3, ... */
function uniqueKey(candidates: string[], taken: Set<string>): string {
  for (const c of candidates) if (!taken.has(c)) return c;
  const base = candidates[0] as string;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** Converts a crontab's text; `tz` is the zone of the lines before any CRON_TZ= or TZ=. */
export function crontabToSchedules(text: string, opts: { tz: string; system: boolean }): CrontabConversion {
  const entries: ScheduleEntry[] = [];
  const notes: CrontabNote[] = [];
  const taken = new Set<string>();
  const env: Record<string, string> = {};
  let tz = opts.tz;
  let shell = '/bin/sh';
  const note = (l: CrontabLine, text: string): void => void notes.push({ line: l.line, note: text });
  for (const l of parseCrontab(text, opts)) {
    if (l.kind === 'blank' || l.kind === 'comment') continue;
    if (l.kind === 'invalid') {
      note(l, `not understood (${l.why}); not converted: ${l.text.trim()}`);
      continue;
    }
    if (l.kind === 'variable') {
      if (l.name === 'CRON_TZ') tz = l.value;
      else if (l.name === 'MAILTO' || l.name === 'MAILFROM') {
        note(
          l,
          `${l.name} has no meaning here: Punctual sends no mail; each run's outcome is in its history`,
        );
      } else {
        if (l.name === 'TZ') tz = l.value;
        if (l.name === 'SHELL') shell = l.value;
        env[l.name] = l.value;
      }
      continue;
    }
    const when = l.when.startsWith('@') ? l.when.toLowerCase() : l.when;
    let spec: string;
    if (when.startsWith('@')) {
      const cron = CRON_NICKNAMES[when];
      if (cron === undefined) {
        const why =
          when === '@reboot'
            ? 'has no meaning here: Punctual runs schedules at times, not when a machine starts'
            : 'is not a cron nickname';
        note(l, `${l.when} ${why}; not converted: ${l.text.trim()}`);
        continue;
      }
      spec = cron;
    } else spec = when;
    const candidates = keyCandidates(l.command);
    const key = uniqueKey(candidates.length > 0 ? candidates : [`crontab-line-${l.line}`], taken);
    taken.add(key);
    const command: CommandTarget['command'] =
      shell === '/bin/sh' ? { argv: [l.command], shell: true } : { argv: [shell, '-c', l.command] };
    if (Object.keys(env).length > 0) command.env = { ...env };
    if (l.stdin !== undefined) command.stdin = l.stdin;
    const summary = `crontab line ${l.line}: ${l.text.trim()}`;
    const entry: ScheduleEntry = {
      key,
      summary: summary.length > SUMMARY_MAX ? `${summary.slice(0, SUMMARY_MAX - 1)}…` : summary,
      spec,
      tz,
      target: { command } satisfies CommandTarget,
    };
    if (l.user !== undefined) {
      entry.labels = { 'crontab-user': l.user };
      note(l, `runs as the service's user, not as "${l.user}" (kept as the label crontab-user)`);
    }
    entries.push(entry);
  }
  return { entries, notes };
}
