// Manual measurement: starts the sandbox situation of setup.ts, writes the two profiles and prints the
// commands to run against them. Stop with Ctrl-C.
//   npx tsx test/sandbox/start.ts /tmp/sbx

import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startSandbox } from './setup.ts';

const dir = resolve(process.argv[2] ?? 'sandbox-profiles');
mkdirSync(dir, { recursive: true });
const sb = await startSandbox();
const write = (name: string, v: unknown) => writeFileSync(join(dir, name), `${JSON.stringify(v, null, 2)}\n`, { mode: 0o600 });
write('control-on.json', sb.controlProfile);
write('sandbox.json', sb.sandboxProfile);
const { control_adapter: _a, ...noAdapter } = sb.sandboxProfile;
const { webhooks: _w, idp: _i, ...bare } = noAdapter;
write('no-control.json', { ...bare, idp: { enabled: true } });
process.stdout.write(
  [
    `VENDOR_SIM_URL=${sb.env.VENDOR_SIM_URL} VENDOR_SIM_KEY=${sb.env.VENDOR_SIM_KEY}`,
    `profiles in ${dir}: control-on.json (our control API), sandbox.json (adapter + external receiver + out-of-band IdP), no-control.json (neither)`,
    '',
  ].join('\n'),
);
process.on('SIGINT', () => void sb.close().then(() => process.exit(0)));
