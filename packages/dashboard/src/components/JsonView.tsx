// A JSON value shown as indented text, scrollable, with a label for screen readers.
export function JsonView({ value, label }: { value: unknown; label: string }) {
  const text = value === undefined ? '(none)' : JSON.stringify(value, null, 2);
  return (
    <pre className="json" aria-label={label} tabIndex={0}>
      {text}
    </pre>
  );
}
