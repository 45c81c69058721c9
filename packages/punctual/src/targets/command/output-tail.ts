// The end of a command's output stream: the last `maxBytes` bytes written to it, and how many came before
// (dropped). It owns the byte budget only; it never reads the stream itself.

export class OutputTail {
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  #dropped = 0;

  constructor(readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#kept += chunk.length;
    while (this.#kept > this.maxBytes) {
      const first = this.#chunks[0]!;
      const excess = this.#kept - this.maxBytes;
      if (first.length <= excess) {
        this.#chunks.shift();
        this.#kept -= first.length;
        this.#dropped += first.length;
      } else {
        this.#chunks[0] = first.subarray(excess);
        this.#kept -= excess;
        this.#dropped += excess;
      }
    }
  }

  /** Bytes written before the kept tail. */
  get droppedBytes(): number {
    return this.#dropped;
  }

  /** The kept bytes as UTF-8 text (a character cut at the start of the tail reads as U+FFFD). */
  text(): string {
    return Buffer.concat(this.#chunks).toString('utf8');
  }
}
