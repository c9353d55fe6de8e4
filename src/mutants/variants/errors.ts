// The section 7 error body and category/status agreement, on validation failures outside the tables.

import { asRecord, onNonRowTokenError } from '../transforms.ts';
import { faults, faulty, type VariantSpec } from '../variant.ts';

/** Builds the errors variants (stateful transforms get fresh state on every call). */
export function errorsVariants(): VariantSpec[] {
  return [
    faulty('errors.category.missing', 'ERR-BODY-SHAPE', 'validation failures outside the section 7 tables carry no error_category', {
      transform: onNonRowTokenError((b) => void delete b.error_category),
    }),
    faulty('errors.http-status-code.mismatch', 'ERR-CATEGORY-STATUS', 'validation failures outside the section 7 tables carry http_status_code 422 on a 400 answer', {
      transform: onNonRowTokenError((b) => void (b.error_category = { ...asRecord(b.error_category), http_status_code: 422 })),
    }),
    faulty('errors.category.wrong', 'ERR-CATEGORY-STATUS', 'validation failures outside the section 7 tables carry CategoryUnauthorized on a 400 answer', {
      transform: onNonRowTokenError((b) => void (b.error_category = { ...asRecord(b.error_category), category: 'CategoryUnauthorized' })),
    }),
    // The answer's status to malformed JSON is open (benign.malformed-json-500 answers 500 with the
    // section 7 body and stays clean); an error with no section 7 body at all is not.
    faulty('errors.malformed-json.bare-500', 'ERR-BODY-SHAPE', 'a malformed JSON request body answers a bare 500 with no error body', faults('input.malformed-json-bare-500')),
  ];
}
