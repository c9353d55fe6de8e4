// Issue 13 "faults that pass today": intermittent faults, terminal states, token lifetimes and
// claims. Each was a fault no check caught before the suites' depth work (pending.ts has the rest).

import { resignedToken } from '../proxy-edits.ts';
import { asRecord, categoryOf, is2xx, isObject, rewriteObject } from '../transforms.ts';
import { faulty, type VariantSpec } from '../variant.ts';

/** A counter per server: true on every `n`th call. */
export function everyNth(n: number) {
  const counts = new Map<string, number>();
  return (key: string) => {
    const c = (counts.get(key) ?? 0) + 1;
    counts.set(key, c);
    return c % n === 0;
  };
}

export function depthVariants(): VariantSpec[] {
  const wrongCategory = everyNth(5);
  return [
    faulty('errors.category.every-5th-error', 'ERR-CATEGORY-STATUS', 'every 5th error answer carries a category that does not match its status (intermittent)', {
      transform: rewriteObject((req, res, b) => res.status >= 400 && !req.operationId?.startsWith('control:') && isObject(b.error_category) && wrongCategory(String(req.headers.host)), (b, res) => {
        b.error_category = { ...asRecord(b.error_category), category: categoryOf(res.status === 401 ? 400 : 401) };
      }),
    }),
    faulty('s2s.claims.iss-not-url', 'AUTH-S2S-TOKEN-CLAIMS', 'the S2S token iss is "baas" instead of the issuer URL (validly signed)', {}, resignedToken('createToken', 's2s_signing_secret', (c) => void (c.iss = 'baas'), { syncExpiresAt: true })),
    faulty('s2s.claims.sub-not-client', 'AUTH-S2S-TOKEN-CLAIMS', 'the S2S token sub is a fresh UUID, not the client id (validly signed)', {}, resignedToken('createToken', 's2s_signing_secret', (c) => void (c.sub = '00000000-0000-4000-8000-000000000000'), { syncExpiresAt: true })),
    faulty('user-token.expires-at-ms', 'AUTH-USER-TOKEN-ISSUANCE', 'the user-token expires_at is in milliseconds', {
      transform: rewriteObject((req, res, b) => req.operationId === 'authorizeUser' && is2xx(res.status) && typeof b.expires_at === 'number', (b) => {
        if (typeof b.expires_at === 'number') b.expires_at *= 1000;
      }),
    }),
  ];
}
