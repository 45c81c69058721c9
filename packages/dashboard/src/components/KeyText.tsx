// A schedule key that wraps only after its separators (. _ : @ -), never in the middle of a word: each
// separator is followed by a line-break opportunity, and the CSS forbids breaks anywhere else.
import { Fragment } from 'react';

export function KeyText({ value }: { value: string }) {
  const parts = value.split(/(?<=[._:@-])/);
  return (
    <>
      {parts.map((p, i) => (
        <Fragment key={i}>
          {p}
          {i < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </>
  );
}
