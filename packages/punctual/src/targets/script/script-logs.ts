// The log of one script run: the lines the guest writes (`ctx.log`), bounded in lines and in bytes (each line
// cut to its own limit), and how many were dropped once a limit was reached, told as one last line. It must
// never keep more than the run's limits allow, nor read a guest value itself: the run reads a line only when
// there is room for it.

import type { RunLimits } from './protocol.js';
import { cutUtf8 } from './script-errors.js';

export class ScriptLogs {
  readonly #lines: string[] = [];
  #bytes = 0;
  #dropped = 0;

  constructor(private readonly limits: Pick<RunLimits, 'maxLogLines' | 'maxLogLineBytes' | 'maxLogBytes'>) {}

  /**
   * Adds the line `read` gives (anything but a string is logged as such); `read` is not called when the run
   * already logged its most lines.
   */
  add(read: () => unknown): void {
    const l = this.limits;
    if (this.#lines.length >= l.maxLogLines) {
      this.#dropped++;
      return;
    }
    const line = read();
    const text = cutUtf8(typeof line === 'string' ? line : '[not a loggable line]', l.maxLogLineBytes);
    const bytes = Buffer.byteLength(text, 'utf8');
    if (this.#bytes + bytes > l.maxLogBytes) {
      this.#dropped++;
      return;
    }
    this.#lines.push(text);
    this.#bytes += bytes;
  }

  /** The lines kept, and a last one counting those dropped (when any were). */
  list(): string[] {
    if (this.#dropped === 0) return this.#lines;
    return [...this.#lines, `[${this.#dropped} more log lines dropped: the log limit was reached]`];
  }
}
