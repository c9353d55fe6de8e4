// Versioning (section 9): v1/v2 user reads and the SepaAccount statuses.

import { field, isObject, items, onOk } from '../transforms.ts';
import { faults, faulty, op, type VariantSpec } from '../variant.ts';

/** Builds the versioning variants (stateful transforms get fresh state on every call). */
export function versioningVariants(): VariantSpec[] {
  return [
    faulty('version.v1.capabilities', 'VERSION-V1-NO-CAPABILITIES', `${op('getUserV1')} returns the capabilities array`, faults('user.v1-capabilities')),
    faulty('version.v2.no-capabilities', 'VERSION-V2-CAPABILITIES', `${op('getUserV2')} omits the capabilities array`, faults('user.v2-no-capabilities')),
    faulty('version.sepa-status.unknown-value', 'VERSION-SEPA-CAPABILITY-STATUSES', 'the SepaAccount status ActivationNotStarted is shown as "NotStarted" (not a section 3 value)', {
      transform: onOk(['getUserV2'], (b) => {
        for (const c of items(field(b, 'capabilities'))) if (isObject(c) && c.type === 'SepaAccount' && c.status === 'ActivationNotStarted') c.status = 'NotStarted';
      }),
    }),
  ];
}
