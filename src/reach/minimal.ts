// The minimal profile: a target profile without the services a partner may not have (the test-control
// API, the signing secrets, the identity provider). `selftest --profile minimal` runs the bank under it
// and `rules --audit` measures what the checks judge there; one definition for both.

import type { TargetProfile } from '../profile/types.ts';

export function minimalProfile(p: TargetProfile): TargetProfile {
  const { control_url: _c, s2s_signing_secret: _s, user_token_signing_secret: _u, ...rest } = p;
  return { ...rest, idp: { enabled: false } };
}
