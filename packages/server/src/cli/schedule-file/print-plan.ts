// How a plan of `punctual apply` reads: one line per schedule with its symbol (`+` create, `~` update with its
// field changes `field: old -> new`, `-` delete, `=` unchanged), the refused entries with their line and code,
// and a summary line; and the same plan as JSON for scripts. It computes nothing and writes nothing itself.

import type { ChangeKind, Plan, PlannedChange } from './plan-changes.js';

export const SYMBOLS: Record<ChangeKind, string> = { create: '+', update: '~', delete: '-', unchanged: '=' };

const VALUE_MAX = 80;

/** A value in a field change: JSON, shortened past 80 characters; `(none)` when absent. */
export function valueText(v: unknown): string {
  if (v === undefined) return '(none)';
  const text = JSON.stringify(v) ?? 'null';
  return text.length > VALUE_MAX ? `${text.slice(0, VALUE_MAX - 1)}…` : text;
}

function changeLines(c: PlannedChange): string[] {
  const where = c.line === undefined ? '' : `  (line ${c.line})`;
  const head = `${SYMBOLS[c.kind]} ${c.kind} ${c.key}${where}`;
  if (c.kind === 'delete') return [`${head}  (not in the file; --prune)`];
  return [head, ...(c.fields ?? []).map((f) => `    ${f.field}: ${valueText(f.from)} -> ${valueText(f.to)}`)];
}

/** The summary line: `Plan: 1 to create, 2 to update, 0 to delete, 3 unchanged.` */
export function summaryLine(plan: Plan): string {
  const n = plan.counts;
  const refused = plan.refused.length > 0 ? `; ${plan.refused.length} refused` : '';
  return `Plan: ${n.create} to create, ${n.update} to update, ${n.delete} to delete, ${n.unchanged} unchanged${refused}.`;
}

/** The plan for people, ending with its summary line and a newline. */
export function planText(plan: Plan): string {
  const lines: string[] = [];
  for (const c of plan.changes) lines.push(...changeLines(c));
  for (const r of plan.refused) {
    const key = r.key === undefined ? '' : ` ${r.key}`;
    lines.push(`! refused${key}  (line ${r.line}): ${r.code}: ${r.message}`);
  }
  if (plan.unnamed.length > 0) {
    lines.push(
      `  ${plan.unnamed.length} stored schedule(s) the file does not name are left alone ` +
        `(--prune deletes them): ${plan.unnamed.join(', ')}`,
    );
  }
  lines.push(summaryLine(plan));
  return `${lines.join('\n')}\n`;
}

/** The plan as JSON: each change without the entry it carries (the file has it). */
export function planJson(plan: Plan): Record<string, unknown> {
  return {
    changes: plan.changes.map((c) => ({
      kind: c.kind,
      key: c.key,
      ...(c.line === undefined ? {} : { line: c.line }),
      ...(c.version === undefined ? {} : { version: c.version }),
      ...(c.fields === undefined ? {} : { fields: c.fields.map((f) => ({ ...f })) }),
    })),
    refused: plan.refused,
    unnamed: plan.unnamed,
    prune: plan.prune,
    counts: plan.counts,
  };
}
