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
    let i = a.length;
    a.push(item);
    // Sift up: move parents down into the hole until the item's place is found.
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = a[parent]!;
      if (!this.before(item, p)) break;
      a[i] = p;
      i = parent;
    }
    a[i] = item;
  }

  pop(): T | undefined {
    const a = this.#items;
    const top = a[0];
    const last = a.pop();
    const n = a.length;
    if (n === 0 || last === undefined) return top;
    // Sift down: move the earlier child up into the hole until `last` fits.
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && this.before(a[c + 1]!, a[c]!)) c++;
      if (!this.before(a[c]!, last)) break;
      a[i] = a[c]!;
      i = c;
    }
    a[i] = last;
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
