// Section 7 body shape and category rules, on negative data: the token endpoint with missing and
// wrong-typed fields, and malformed JSON, answers errors with the section 7 body.
// Joined into the errors drivers (suites/drivers/errors.ts); the generated suite is suites/generated/errors.ts.

import fc from 'fast-check';
import type { ErrorRuleId } from '../../src/model/types.ts';
import { checkProperty } from '../../src/checks/property.ts';
import type { Driver } from './driver.ts';
import {
  bearer, chainHeader, check, expectError, expectErrorShape, headers, requestToken, s2sToken, tokenBody, CheckFailure,
  warnReading, field,
} from '../kit/index.ts';

type FieldForm = 'valid' | 'missing' | 'number' | 'boolean' | 'null' | 'array' | 'object' | 'empty';
const FORMS: FieldForm[] = ['valid', 'missing', 'number', 'boolean', 'null', 'array', 'object'];
const TOKEN_FIELDS = ['client_id', 'client_secret', 'grant_type'] as const;
const MISSING_ROW: Record<string, ErrorRuleId | undefined> = {
  client_id: 'ERR-TOKEN-CLIENT-ID-MISSING',
  client_secret: 'ERR-TOKEN-CLIENT-SECRET-MISSING',
};

function formValue(form: FieldForm, valid: string, n: number): unknown {
  switch (form) {
    case 'valid': return valid;
    case 'number': return n;
    case 'boolean': return n % 2 === 0;
    case 'null': return null;
    case 'array': return [valid];
    case 'object': return { value: valid };
    default: return undefined;
  }
}

export const bodyShape: Driver = {
  title: 'Token endpoint with missing and wrong-typed fields: every answer is an error with the section 7 body, its category matching the status (a 5xx where no row applies is a warning); malformed JSON: an error of any status with that body',
  safe: true,
  alsoCovers: ['ERR-CATEGORY-STATUS'],
  async run(ctx) {
    const valid = tokenBody(ctx);
    const arb = fc
      .tuple(fc.constantFrom(...FORMS), fc.constantFrom(...FORMS), fc.constantFrom(...FORMS), fc.integer())
      .filter(([a, b, c]) => !(a === 'valid' && b === 'valid' && c === 'valid'));
    // One warning per check run, not one per generated body. The runs are independent (each sends one
    // request a conforming target refuses without effect; a 429 is waited out) and go out in concurrent
    // batches, so the first 5xx to arrive depends on timing: the warning names the least in text order
    // of all seen, the same for a seed whatever the order of answers.
    let least5xx: string | undefined;
    try {
      await checkProperty(ctx, fc.asyncProperty(arb, async ([a, b, c, n]) => {
        const forms = [a, b, c];
        const body: Record<string, unknown> = {};
        TOKEN_FIELDS.forEach((f, i) => {
          if (forms[i] !== 'missing') body[f] = formValue(forms[i], valid[f], n);
        });
        const res = await requestToken(ctx, body);
        if (res.status < 400) throw new CheckFailure(`token endpoint accepted ${JSON.stringify(body)} with HTTP ${res.status}`, { response: res });
        expectErrorShape(ctx, res);
        // No row shows the answer to a wrongly-typed field (ERR-BODY-SHAPE reading wrong-type-status):
        // a 5xx with the section 7 body warns; where a row applies (below) the row decides.
        if (res.status >= 500) {
          const seen = `token endpoint answered HTTP ${res.status} ${String(field(res.json, 'error_reason'))} to ${JSON.stringify(body)}`;
          if (least5xx === undefined || seen < least5xx) least5xx = seen;
        }
        // Exactly one field missing and the others valid: exactly one row applies.
        const missing = forms.flatMap((f, i) => (f === 'missing' ? [TOKEN_FIELDS[i]] : []));
        const others = forms.filter((f) => f !== 'missing');
        if (missing.length === 1 && others.every((f) => f === 'valid') && MISSING_ROW[missing[0]]) expectError(ctx, res, MISSING_ROW[missing[0]]!);
      }), { numRuns: Math.min(ctx.numRuns, 40) }, { independent: true });
    } finally {
      if (least5xx !== undefined) warnReading(ctx, 'ERR-BODY-SHAPE', 'wrong-type-status', least5xx);
    }
    // A body that is not JSON at all must be refused, but section 7 does not show with which status
    // ("errors of endpoints other than those above: not shown"; recorded as unspecified on
    // ERR-BODY-SHAPE in spec/rules/errors.yaml): a 400 and a 500 CategoryInternalFailure are both
    // readings. Whatever the status, the answer is an error with the section 7 body whose category
    // matches that status; accepting it (2xx) or a bare 500 with no error body fails.
    // The three requests below depend on nothing before them nor on each other: sent together, judged in order.
    const [malformed, ...more] = await Promise.all([
      ctx.http.send({ op: 'createToken', rawBody: '{"client_id": "x", "client_secret": ', headers: { 'Content-Type': 'application/json' } }),
      ctx.http.send({ op: 'getConfig', headers: chainHeader(ctx) }),
      s2sToken(ctx).then((token) => ctx.http.send({ op: 'getUserV1', headers: headers(bearer(token), chainHeader(ctx)) })),
    ]);
    check(malformed.status >= 400, `token endpoint answered HTTP ${malformed.status} to a malformed JSON body; expected an error answer with the section 7 body`, { response: malformed, rules: ['ERR-BODY-SHAPE'] });
    expectErrorShape(ctx, malformed);
    // Errors from the other tables carry the same shape.
    for (const res of more) {
      check(res.status >= 400 && res.status < 500, `expected a 4xx error, got HTTP ${res.status}`, { response: res });
      expectErrorShape(ctx, res);
    }
  },
};
