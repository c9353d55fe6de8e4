// The section 7 category of an HTTP status, as the model of the server being mutated holds it
// (model.categoryFor), for edits that move an error to another status. Edits run synchronously
// inside one transform or proxy hook call, so the caller puts its model's table in scope for the
// duration of that call (withCategories) and the edit reads it (categoryOf); no copy of the table.

type CategoryFor = (status: number) => string | null;

let scope: CategoryFor | undefined;

/** Runs the synchronous `fn` with `categoryFor` as the table categoryOf reads. */
export function withCategories<T>(categoryFor: CategoryFor, fn: () => T): T {
  const prev = scope;
  scope = categoryFor;
  try {
    return fn();
  } finally {
    scope = prev;
  }
}

/** The category of `status`; a status section 7 does not list gets the 400 category (a body the shape rules accept). */
export function categoryOf(status: number): string {
  if (!scope) throw new Error('categoryOf: called outside a transform or proxy hook (no model in scope)');
  const c = scope(status) ?? scope(400);
  if (!c) throw new Error(`categoryOf: the model has no category for ${status} or 400 (spec/rules/errors.yaml)`);
  return c;
}
