// The live preview of a spec as it is typed in the schedule form: the description and next fire times from
// the preview endpoint with the form's DST choice and calendars (exclude, businessDays: the stored calendars
// they name), debounced while typing, at once for a schedule just loaded for editing. It owns no
// form state and never writes anything: the preview endpoint saves nothing.

import { useEffect, useMemo, useRef, useState } from 'react';
import type { Api, DstChoice, Preview } from '../api.ts';
import { useDebounced } from './hooks.ts';
import { isoOf, wallTimeToInstant } from './time.ts';

export interface SpecPreview {
  data?: Preview;
  error?: unknown;
  /** Asked and not answered yet, or typed and not asked yet (the debounce is running). */
  loading: boolean;
}

/** The DST choice the form's two selects stand for; undefined when both are left to the default. */
function dstOf(gap: string, repeat: string): Partial<DstChoice> | undefined {
  if (gap === '' && repeat === '') return undefined;
  return {
    ...(gap === '' ? {} : { gap: gap as DstChoice['gap'] }),
    ...(repeat === '' ? {} : { repeat: repeat as DstChoice['repeat'] }),
  };
}

type Roll = 'skip' | 'next' | 'previous';

/** The calendars the form names: `exclude` as a list, `businessDays` when a calendar is given. */
function calendarsOf(exclude: string, calendar: string, roll: string) {
  const names = exclude
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const cal = calendar.trim();
  return {
    exclude: names.length > 0 ? names.join(',') : undefined,
    businessDays: cal === '' ? undefined : { calendar: cal, ...(roll === '' ? {} : { roll: roll as Roll }) },
  };
}

/** The preview of `spec` in `tz` from `startAt` (a wall time in `tz`) when that is in the future. */
export function useSpecPreview(
  api: Api,
  input: {
    spec: string;
    tz: string;
    startAt: string;
    dstGap?: string;
    dstRepeat?: string;
    exclude?: string;
    businessDaysCalendar?: string;
    businessDaysRoll?: string;
  },
  opts: { editing: boolean; delayMs: number },
): SpecPreview {
  const typed = useMemo(() => {
    const startMs = input.startAt ? wallTimeToInstant(input.startAt, input.tz || 'UTC') : null;
    return {
      spec: input.spec.trim(),
      tz: input.tz.trim(),
      from: startMs !== null && startMs > Date.now() ? isoOf(startMs) : undefined,
      dst: dstOf(input.dstGap ?? '', input.dstRepeat ?? ''),
      ...calendarsOf(input.exclude ?? '', input.businessDaysCalendar ?? '', input.businessDaysRoll ?? ''),
    };
  }, [
    input.spec,
    input.tz,
    input.startAt,
    input.dstGap,
    input.dstRepeat,
    input.exclude,
    input.businessDaysCalendar,
    input.businessDaysRoll,
  ]);
  // A schedule just loaded for editing is previewed at once; typing is debounced.
  const loadedSpec = useRef(false);
  const asked = useDebounced(typed, opts.editing && !loadedSpec.current ? 0 : opts.delayMs);
  if (asked.spec !== '') loadedSpec.current = true;
  const [preview, setPreview] = useState<SpecPreview>({ loading: false });
  useEffect(() => {
    if (asked.spec === '') {
      setPreview({ loading: false });
      return;
    }
    const abort = new AbortController();
    setPreview((p) => ({ ...p, loading: true }));
    api
      .preview(
        {
          spec: asked.spec,
          count: 10,
          ...(asked.tz ? { tz: asked.tz } : {}),
          ...(asked.from ? { from: asked.from } : {}),
          ...(asked.dst ? { dst: asked.dst } : {}),
          ...(asked.exclude ? { exclude: asked.exclude.split(',') } : {}),
          ...(asked.businessDays ? { businessDays: asked.businessDays } : {}),
        },
        abort.signal,
      )
      .then(
        (data) => setPreview({ data, loading: false }),
        (error) => {
          if (!abort.signal.aborted) setPreview({ error, loading: false });
        },
      );
    return () => abort.abort();
  }, [api, asked]);
  const pending = typed.spec !== '' && (typed.spec !== asked.spec || typed.tz !== asked.tz);
  return { ...preview, loading: preview.loading || pending };
}
