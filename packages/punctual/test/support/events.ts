// Waiting on engine events instead of sleeping: `next` resolves with the first matching event, `collect`
// records every event of a kind for later assertions.

import type { EventName, PunctualEvents } from '../../src/events.js';

interface Emitter {
  on<E extends EventName>(event: E, listener: (p: PunctualEvents[E]) => void): () => void;
}

export function nextEvent<E extends EventName>(
  source: Emitter,
  event: E,
  match: (p: PunctualEvents[E]) => boolean = () => true,
): Promise<PunctualEvents[E]> {
  return new Promise((resolve) => {
    const off = source.on(event, (p) => {
      if (match(p)) {
        off();
        resolve(p);
      }
    });
  });
}

export function collect<E extends EventName>(source: Emitter, event: E): PunctualEvents[E][] {
  const seen: PunctualEvents[E][] = [];
  source.on(event, (p) => seen.push(p));
  return seen;
}
