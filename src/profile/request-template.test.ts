// The one merge of profile.request_templates: shallow, null removes, "{{name}}" takes an earlier step's value.
import { describe, expect, it } from 'vitest';
import { applyRequestTemplate } from './request-template.ts';

describe('applyRequestTemplate', () => {
  it('merges shallow over the defaults, removes a null field, and fills placeholders from step values only', () => {
    const out = applyRequestTemplate(
      { estimation_id: null, estimate_id: '{{estimation_id}}', note: 'id {{estimation_id}} of {{missing}}', sepa: { iban: 'X' }, first_name: '{{first_name}}' },
      { first_name: 'Ada', sepa: { iban: 'DE', bic: 'B' }, gone: undefined },
      { estimation_id: 42 },
    );
    expect(out).toEqual({ first_name: '{{first_name}}', sepa: { iban: 'X' }, estimate_id: 42, note: 'id 42 of {{missing}}' });
  });

  it('without a template the body is the defaults and step values', () => {
    expect(applyRequestTemplate(undefined, { a: 1 }, { b: 2 })).toEqual({ a: 1, b: 2 });
  });
});
