// One check's side of the --safe guard (src/client/safe-guard.ts): the API requests it sends and the
// control operations it calls are held against the model, and whatever was refused is kept so the
// runner fails the check even when its body caught the refusal and went on (or skipped).

import type { RunServices } from '../checks/types.ts';
import { controlRefusal, safeGuard, SafeModeRefusal, type SafeGuard } from '../client/safe-guard.ts';
import type { Model } from '../model/types.ts';
import type { ProfileLocations } from '../client/operation-location.ts';

export interface SafeCheck {
  refuse: SafeGuard;
  services: RunServices;
  /** What the check tried that --safe forbids (empty when it kept the promise). */
  refused: string[];
}

export function safeCheck(model: Model, profile: ProfileLocations, services: RunServices): SafeCheck {
  const refused: string[] = [];
  const guard = safeGuard(model, profile);
  const refuse: SafeGuard = (req, target) => {
    const why = guard(req, target);
    if (why) refused.push(why);
    return why;
  };
  const control = services.control;
  const guarded: RunServices = control
    ? {
        ...services,
        control: {
          ...control,
          operations: () => control.operations(),
          supports: (id) => control.supports(id),
          call: (http, operationId, input) => {
            const why = controlRefusal(model, operationId);
            if (why) {
              refused.push(why);
              return Promise.reject(new SafeModeRefusal(why));
            }
            return control.call(http, operationId, input);
          },
        },
      }
    : services;
  return { refuse, services: guarded, refused };
}
