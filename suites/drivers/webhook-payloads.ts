// Pure judges of a webhook payload: the card limit webhook's missing owner field (section 6); the
// section 9.2 naming judge lives in src/checks/naming.ts (the audit of every answer uses it too).

import { eachObject } from '../../src/checks/naming.ts';

export { namingFindings, namingProblems, type NamingFindings } from '../../src/checks/naming.ts';

/** Whether a payload carries an owner key at its top level, and where it carries one nested. */
export function ownerKeys(body: unknown, key = 'owner'): { top: boolean; nested: string[] } {
  const nested: string[] = [];
  let top = false;
  eachObject(body, (o, at, depth) => {
    if (!Object.hasOwn(o, key)) return;
    if (depth === 0) top = true;
    else nested.push(`${at}.${key}`);
  });
  return { top, nested };
}
