// Previous / next page controls over cursor pagination (the API gives only the next cursor, so the pages
// already seen are kept as a stack by the caller).
export interface PagerProps {
  page: number;
  hasNext: boolean;
  onPrev: () => void;
  onNext: () => void;
  label: string;
}

export function Pager({ page, hasNext, onPrev, onNext, label }: PagerProps) {
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" onClick={onPrev} disabled={page <= 1}>
        ← Previous
      </button>
      <span aria-live="polite">Page {page}</span>
      <button type="button" onClick={onNext} disabled={!hasNext}>
        Next →
      </button>
    </nav>
  );
}
