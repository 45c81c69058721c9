// Cursor pagination state for a listing: the cursor of the page shown and the stack of those before it, so
// "Previous" works although the API only hands out the next cursor. Resets when the filters change.

import { useCallback, useState } from 'react';

export interface Cursors {
  /** The cursor of the page shown (undefined: the first page). */
  cursor: string | undefined;
  page: number;
  next: (cursor: string) => void;
  prev: () => void;
}

export function useCursors(filterKey: string): Cursors {
  const [state, setState] = useState<{ key: string; stack: (string | undefined)[] }>({
    key: filterKey,
    stack: [undefined],
  });
  const stack = state.key === filterKey ? state.stack : [undefined];
  if (state.key !== filterKey) setState({ key: filterKey, stack });
  const next = useCallback(
    (cursor: string) => setState((s) => ({ key: s.key, stack: [...s.stack, cursor] })),
    [],
  );
  const prev = useCallback(
    () => setState((s) => ({ key: s.key, stack: s.stack.length > 1 ? s.stack.slice(0, -1) : s.stack })),
    [],
  );
  return { cursor: stack[stack.length - 1], page: stack.length, next, prev };
}
