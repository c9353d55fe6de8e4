// Values a profile marks volatile (`volatile_fields`): fields whose presence, type or value changes
// from one call to the next by design on that target (a server-generated challenge, a balance that
// is sometimes a string), beyond the ids, addresses and timestamps compare normalises anyway.
// An entry is a field name (matched at any depth), a JSON path from the answer's root
// (`$.balances[].balance`, the field and what lies below it), either optionally prefixed by an
// operationId and a colon (`initBankAccount:challenge`) to hold for that operation only.

function segments(path: string): string[] {
  return path.split(/\.|(?=\[\])/).filter((s) => s && s !== '$' && s !== '[]');
}

export type VolatileMatcher = (operation: string, path: string) => boolean;

export function volatileMatcher(entries: readonly string[]): VolatileMatcher {
  const parsed = entries.map((raw) => {
    const colon = raw.indexOf(':');
    const [op, field] = colon > 0 && !raw.startsWith('$') ? [raw.slice(0, colon), raw.slice(colon + 1)] : [undefined, raw];
    return { op, field };
  });
  return (operation, path) =>
    parsed.some(({ op, field }) => {
      if (op !== undefined && op !== operation) return false;
      if (field.startsWith('$')) return path === field || path.startsWith(`${field}.`) || path.startsWith(`${field}[]`);
      return segments(path).includes(field);
    });
}
