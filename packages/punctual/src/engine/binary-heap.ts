// A binary heap: push and pop in O(log n), the first element in O(1), by an order given at construction.
// It owns only the array and that order; it knows nothing of runs, clocks or stores.

export class BinaryHeap<T> {
  #items: T[] = [];

  /** `before(a, b)`: a comes out before b. */
  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.#items.length;
  }

  /** The element that comes out next, or undefined when empty. */
  peek(): T | undefined {
    return this.#items[0];
  }

  push(item: T): void {
    const a = this.#items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(a[i]!, a[parent]!)) break;
      [a[i], a[parent]] = [a[parent]!, a[i]!];
      i = parent;
    }
  }

  pop(): T | undefined {
    const a = this.#items;
    const top = a[0];
    const last = a.pop();
    if (a.length === 0 || last === undefined) return top;
    a[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < a.length && this.before(a[l]!, a[m]!)) m = l;
      if (r < a.length && this.before(a[r]!, a[m]!)) m = r;
      if (m === i) break;
      [a[i], a[m]] = [a[m]!, a[i]!];
      i = m;
    }
    return top;
  }

  /** Every element, in no particular order (a copy). */
  toArray(): T[] {
    return [...this.#items];
  }

  /** Replaces the contents (O(n)). */
  reset(items: T[]): void {
    this.#items = [];
    for (const item of items) this.push(item);
  }
}
