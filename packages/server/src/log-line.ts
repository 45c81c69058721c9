// The terminal form of a log record: one line per event (a request, a run transition, a start or a stop),
// `HH:MM:SS.mmmZ LEVEL message key=value ...`, with the level coloured when asked. It reads the records
// pino writes as JSON and never changes what the JSON logs hold; it must never print a field the JSON
// record does not carry, and never span several lines (a stack is cut to its first line).

/** pino's numeric levels and the names shown for them. */
const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** ANSI colours per level (only with `colorize`). */
const COLOURS: Record<number, string> = {
  10: '\x1b[90m',
  20: '\x1b[36m',
  30: '\x1b[32m',
  40: '\x1b[33m',
  50: '\x1b[31m',
  60: '\x1b[35m',
};
const RESET = '\x1b[39m';

/** Fields every record carries, or that only matter to machines: left out of the terminal line. */
const HIDDEN = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'service', 'component', 'reqId']);

/** Fields a request line shows in its head rather than as key=value. */
const REQUEST_HEAD = new Set(['method', 'path', 'route', 'status', 'ms']);

/**
 * Fastify's own line once it listens ("Server listening at http://..."): the service writes a `listening`
 * line of its own with the database too, so the terminal shows that one only.
 */
const FRAMEWORK_LISTENING = /^Server listening at /;

export interface LogLineOptions {
  /** Colour the level with ANSI escapes (a terminal). */
  colorize: boolean;
}

/** One line of text, never containing a line break. */
function oneLine(text: string): string {
  const first = text.split(/\r?\n/, 1)[0] ?? '';
  return first.length < text.length ? `${first} ...` : first;
}

function errorText(v: Record<string, unknown>): string {
  const type = typeof v.type === 'string' ? v.type : 'Error';
  const message = typeof v.message === 'string' ? v.message : JSON.stringify(v);
  return `${type}: ${message}`;
}

/** A value as it appears after `key=`: bare when it is one word, quoted (JSON) otherwise. */
function valueText(key: string, v: unknown): string {
  if (key === 'err' && typeof v === 'object' && v !== null && !Array.isArray(v)) {
    return JSON.stringify(oneLine(errorText(v as Record<string, unknown>)));
  }
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(oneLine(v));
  return JSON.stringify(v) ?? String(v);
}

function time(ms: unknown): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '--:--:--.---Z';
  return `${new Date(ms).toISOString().slice(11, 23)}Z`;
}

/** `GET /v1/schedules 401 8ms`, the head of a request line. */
function requestHead(r: Record<string, unknown>): string {
  return `${String(r.method)} ${String(r.path)} ${String(r.status)} ${String(r.ms)}ms`;
}

function isRequest(r: Record<string, unknown>): boolean {
  return r.msg === 'request' && typeof r.method === 'string' && r.status !== undefined;
}

/**
 * The terminal line for one pino record (without its line break), or null for a record the terminal does
 * not show (Fastify's duplicate "Server listening at" line).
 */
export function formatLogLine(record: Record<string, unknown>, opts: LogLineOptions): string | null {
  const msg = typeof record.msg === 'string' ? record.msg : '';
  if (FRAMEWORK_LISTENING.test(msg)) return null;
  const level = typeof record.level === 'number' ? record.level : 30;
  const name = (LEVELS[level] ?? `L${level}`).padEnd(5);
  const shownLevel = opts.colorize ? `${COLOURS[level] ?? ''}${name}${RESET}` : name;
  const request = isRequest(record);
  const head = request ? requestHead(record) : oneLine(msg);
  const fields: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (HIDDEN.has(key) || value === undefined) continue;
    if (request && REQUEST_HEAD.has(key)) continue;
    fields.push(`${key}=${valueText(key, value)}`);
  }
  return [time(record.time), shownLevel, head, ...fields].join(' ');
}

/**
 * Formats one chunk of what pino writes (one or more JSON lines) into terminal lines, each ending with a line
 * break. A line that is not JSON is passed through unchanged.
 */
export function formatLogChunk(chunk: string, opts: LogLineOptions): string {
  let out = '';
  for (const line of chunk.split('\n')) {
    if (line.trim() === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      out += `${line}\n`;
      continue;
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) {
      out += `${line}\n`;
      continue;
    }
    const text = formatLogLine(record as Record<string, unknown>, opts);
    if (text !== null) out += `${text}\n`;
  }
  return out;
}
