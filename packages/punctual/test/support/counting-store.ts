// A store whose calls of one method are counted, for tests that assert how often the engine asks the store
// for something (steps, rounds). Every other method is the store's own. Test support only.

import type { Store } from '../../src/store/store.js';

export function countingCalls(store: Store, method: string): { store: Store; calls: () => number } {
  let calls = 0;
  const wrapped = new Proxy(store, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      if (prop !== method) return (v as () => unknown).bind(target);
      return (...args: unknown[]) => {
        calls++;
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: wrapped, calls: () => calls };
}
