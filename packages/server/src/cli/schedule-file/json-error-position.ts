// Where JSON text first goes wrong, as a line and column: JSON.parse names a position for some mistakes only,
// and a schedules file's reader must always point at one. A small scanner of the JSON grammar; it builds no
// values (JSON.parse does that) and must never accept what JSON.parse refuses.

export interface TextPosition {
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

/** The 1-based line and column of an offset in a text. */
export function positionOf(text: string, offset: number): TextPosition {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

class Stop {
  constructor(readonly at: number) {}
}

/** The position of the first error in `text` as JSON, or undefined when it is valid JSON. */
export function jsonErrorPosition(text: string): TextPosition | undefined {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const literal = (word: string): void => {
    for (const ch of word) {
      if (text[i] !== ch) throw new Stop(i);
      i++;
    }
  };
  const string = (): void => {
    if (text[i] !== '"') throw new Stop(i);
    i++;
    for (;;) {
      const ch = text[i];
      if (ch === undefined || ch < ' ') throw new Stop(i);
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) throw new Stop(i);
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else throw new Stop(i);
      } else i++;
    }
  };
  const number = (): void => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) throw new Stop(i);
    i += m[0].length;
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        string();
        ws();
        if (text[i] !== ':') throw new Stop(i);
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else throw new Stop(i);
      }
    }
    if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else throw new Stop(i);
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    return number();
  };
  try {
    value();
    ws();
    if (i < text.length) throw new Stop(i);
    return undefined;
  } catch (e) {
    if (e instanceof Stop) return positionOf(text, e.at);
    throw e;
  }
}
