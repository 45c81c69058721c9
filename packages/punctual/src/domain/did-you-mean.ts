// "Did you mean" for names a user types (spec forms, target kinds, options): the closest known name by
// edit distance, when it is close enough to be a typo. Pure string arithmetic: no I/O, no locale rules
// beyond case-folding.

/** Levenshtein distance (insertions, deletions and substitutions each cost 1), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      row.push(Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = row;
  }
  return prev[t.length] ?? 0;
}

/**
 * The known name closest to `word`, if it is a likely typo: at most 2 edits away, and fewer edits than
 * half the word's length (so "x" does not suggest "at"). Ties go to the earlier name. Undefined otherwise.
 */
export function closestName(word: string, names: readonly string[]): string | undefined {
  const max = Math.min(2, Math.ceil(word.length / 2) - 1);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of names) {
    const d = editDistance(word, name);
    if (d <= max && d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}
