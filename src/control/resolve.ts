// Which adapter a run uses: an adapter file or module (profile.control_adapter or --control-adapter)
// wins over profile.control_url, because a profile for a vendor sandbox may still carry a stale
// control_url; without either, there is no adapter and every control need is unmet.

import { extname, resolve } from 'node:path';
import type { Model } from '../model/types.ts';
import type { ResolvedProfile } from '../profile/types.ts';
import { loadAdapterFile } from './file-adapter.ts';
import { httpControlAdapter } from './http-adapter.ts';
import { loadAdapterModule } from './module-adapter.ts';
import { s2sTokenSource } from './token.ts';
import type { ControlAdapter } from './types.ts';

const MODULE_EXTENSIONS = ['.js', '.mjs', '.ts', '.mts'];

export async function resolveControlAdapter(
  profile: ResolvedProfile,
  model: Pick<Model, 'control' | 'openapi' | 'grantType' | 'refreshBufferSeconds' | 'tokenValiditySeconds' | 'operation'>,
  opts: { file?: string; cwd?: string; env?: Record<string, string | undefined>; onSecret?: (value: string) => void } = {},
): Promise<ControlAdapter | undefined> {
  const given = opts.file ?? profile.control_adapter;
  if (given) {
    const file = resolve(opts.cwd ?? process.cwd(), given);
    if (MODULE_EXTENSIONS.includes(extname(file))) return loadAdapterModule(file, model, profile);
    return loadAdapterFile(file, model, { profile, env: opts.env, onSecret: opts.onSecret, s2sToken: s2sTokenSource(model, profile) });
  }
  return profile.control_url ? httpControlAdapter(model) : undefined;
}
