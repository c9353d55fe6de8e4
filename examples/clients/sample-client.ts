// The sample partner client as a program, for `baas-conform audit` in another terminal:
//   npx baas-conform audit --duration 20 --profile-out audit-profile.json --webhook-url http://127.0.0.1:8099 &
//   npx tsx examples/clients/sample-client.ts --profile audit-profile.json --webhook-port 8099
// --mode picks a faulty or benign variant (src/audit/bank/modes.ts); the default is the conforming client.

import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { isSampleClientMode, runSampleClient, startSampleReceiver, type AuditProfile } from '../../src/index.ts';

const { values } = parseArgs({
  options: {
    profile: { type: 'string' },
    mode: { type: 'string', default: 'none' },
    duration: { type: 'string', default: '22' },
    'webhook-port': { type: 'string' },
  },
});

/** The profile file appears once the audit listens: wait for it (bounded). */
async function readProfile(file: string): Promise<AuditProfile> {
  for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
  const line = readFileSync(file, 'utf8').split('\n')[0];
  return JSON.parse(line) as AuditProfile;
}

const mode = values.mode ?? 'none';
if (!isSampleClientMode(mode)) {
  process.stderr.write(`unknown --mode ${mode}\n`);
  process.exit(2);
}
const raw = values.profile ? await readProfile(values.profile) : process.env.BAAS_AUDIT_PROFILE ? (JSON.parse(process.env.BAAS_AUDIT_PROFILE) as AuditProfile) : undefined;
if (!raw) {
  process.stderr.write('give --profile FILE (the audit\'s --profile-out) or BAAS_AUDIT_PROFILE\n');
  process.exit(2);
}
const receiver = values['webhook-port'] ? await startSampleReceiver({ port: Number(values['webhook-port']), strict: mode === 'webhook-strict' }) : undefined;
const result = await runSampleClient(raw, { mode, durationMs: Number(values.duration) * 1000 });
// Late repeated deliveries still arrive after the last call.
await new Promise((r) => setTimeout(r, 1000));
await receiver?.close();
process.stdout.write(`${JSON.stringify({ mode, calls: result.calls, problems: result.problems, webhooks: receiver?.received.length ?? 0 })}\n`);
