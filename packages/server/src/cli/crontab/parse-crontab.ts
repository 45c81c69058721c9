// Reads a crontab's text into its lines: blank, comment, variable (`NAME=value`), job (a 5-field time or an
// `@` nickname, the user in the system format, and the command with its `%` semantics applied), or a line it
// does not understand. It decides nothing about schedules (crontab-to-schedules.ts does) and does no I/O.

export type CrontabLine =
  | { kind: 'blank'; line: number; text: string }
  | { kind: 'comment'; line: number; text: string }
  | { kind: 'variable'; line: number; text: string; name: string; value: string }
  | {
      kind: 'job';
      line: number;
      text: string;
      /** The five time fields as written, or an `@` word (`@daily`, `@reboot`, ...). */
      when: string;
      /** The system format's user field. */
      user?: string | undefined;
      /** The command, up to the first unescaped `%`, with `\%` read as `%`. */
      command: string;
      /** What follows the first unescaped `%`, each further `%` a newline; absent without one. */
      stdin?: string | undefined;
    }
  | { kind: 'invalid'; line: number; text: string; why: string };

const VARIABLE = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/;

/** A variable's value without its quotes: `"a b"` and `'a b'` are `a b`. */
function unquote(value: string): string {
  const m = /^(["'])(.*)\1$/.exec(value);
  return m ? (m[2] as string) : value;
}

/**
 * A command field read as cron reads it: an unescaped `%` ends the command and the rest becomes standard
 * input, where each further unescaped `%` is a newline; `\%` is a literal `%`; other backslashes stay.
 */
export function splitPercent(field: string): { command: string; stdin?: string } {
  const translate = (text: string, percent: string): string => {
    let out = '';
    for (let i = 0; i < text.length; i++) {
      const ch = text[i] as string;
      if (ch === '\\' && text[i + 1] === '%') {
        out += '%';
        i++;
      } else out += ch === '%' ? percent : ch;
    }
    return out;
  };
  for (let i = 0; i < field.length; i++) {
    if (field[i] === '\\') i++;
    else if (field[i] === '%') {
      return { command: translate(field.slice(0, i), '%'), stdin: translate(field.slice(i + 1), '\n') };
    }
  }
  return { command: translate(field, '%') };
}

/** Splits off `count` whitespace-separated fields; the rest of the line (leading blanks removed) follows. */
function fields(text: string, count: number): { fields: string[]; rest: string } | undefined {
  const out: string[] = [];
  let rest = text.replace(/^\s+/, '');
  for (let i = 0; i < count; i++) {
    const m = /^(\S+)(\s+|$)/.exec(rest);
    if (!m) return undefined;
    out.push(m[1] as string);
    rest = rest.slice(m[0].length);
  }
  return { fields: out, rest };
}

/** The lines of a crontab; `system` reads a user field between the time and the command. */
export function parseCrontab(text: string, opts: { system: boolean }): CrontabLine[] {
  return text.split(/\r?\n/).map((raw, i): CrontabLine => {
    const line = i + 1;
    const trimmed = raw.trim();
    if (trimmed === '') return { kind: 'blank', line, text: raw };
    if (trimmed.startsWith('#')) return { kind: 'comment', line, text: raw };
    const variable = VARIABLE.exec(raw);
    if (variable && !/^\s*[@*\d]/.test(raw)) {
      return {
        kind: 'variable',
        line,
        text: raw,
        name: variable[1] as string,
        value: unquote(variable[2] as string),
      };
    }
    const timeFields = trimmed.startsWith('@') ? 1 : 5;
    const split = fields(raw, timeFields + (opts.system ? 1 : 0));
    if (split === undefined || split.rest.trim() === '') {
      const what = opts.system ? 'the time, a user and a command' : 'the time and a command';
      return { kind: 'invalid', line, text: raw, why: `expected ${what}` };
    }
    const when = split.fields.slice(0, timeFields).join(' ');
    const user = opts.system ? split.fields[timeFields] : undefined;
    const { command, stdin } = splitPercent(split.rest);
    return {
      kind: 'job',
      line,
      text: raw,
      when,
      ...(user === undefined ? {} : { user }),
      command,
      ...(stdin === undefined ? {} : { stdin }),
    };
  });
}

/** Whether a crontab looks like the system format: its path (/etc/crontab, /etc/cron.d/) or its header. */
export function looksLikeSystemCrontab(path: string, text: string): boolean {
  if (/(^|\/)etc\/crontab$/.test(path) || /(^|\/)cron\.d\/[^/]+$/.test(path)) return true;
  return /^#.*\bdow\s+user\s+command\b/m.test(text);
}
