// Section 7 error rows, one module per table: token endpoint (errors-token.ts), S2S (errors-s2s.ts),
// identity provider (errors-idp.ts), user token (errors-user-token.ts), and the body shape and category
// rules (errors-body-shape.ts). Each check varies one thing against a request that otherwise succeeds,
// so exactly one row applies; expected values come from model.errorRule(id).

import type { Drivers } from './driver.ts';
import { bodyShape } from './errors-body-shape.ts';
import { idpDrivers } from './errors-idp.ts';
import { s2sDrivers } from './errors-s2s.ts';
import { tokenDrivers } from './errors-token.ts';
import { userTokenDrivers } from './errors-user-token.ts';

export const drivers: Drivers = {
  'ERR-BODY-SHAPE': bodyShape,
  ...tokenDrivers,
  ...s2sDrivers,
  ...idpDrivers,
  ...userTokenDrivers,
};
