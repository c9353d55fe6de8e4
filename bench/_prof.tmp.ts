import { spawn } from 'node:child_process';
import { resolveProfile } from '../src/profile/index.ts';
import { runLoad } from '../src/load/index.ts';
const SERVER = `
const body = JSON.stringify({ access_token: 'bench.token.sig', token_type: 'Bearer', expires_at: 4102444800, user_id: '00000000-0000-4000-8000-000000000000', id: '00000000-0000-4000-8000-000000000000', user_address: '0xabc', wallet_address: '0xabc' });
const s = require('node:http').createServer((req, res) => { req.resume(); res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }); res.end(body); });
s.keepAliveTimeout = 60000;
s.listen(0, '127.0.0.1', () => process.stdout.write(String(s.address().port) + '\\n'));
`;
const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise<string>((r) => child.stdout!.once('data', (d) => r(String(d).trim())));
const url = `http://127.0.0.1:${port}`;
const profile = resolveProfile({ base_url: url, clients: [{ client_id: 'bench', client_secret: 'bench-secret' }] }, { env: {} });
const judge = Number(process.env.J ?? 1);
const rate = process.env.RATE ? Number(process.env.RATE) : undefined;
for (let i = 0; i < Number(process.env.N ?? 2); i++) {
  const c0 = process.cpuUsage();
  const r = await runLoad({ scenario: 'user-read', profile, durationSec: Number(process.env.D ?? 4), connections: 10, judgeSample: judge, ...(rate ? { arrivalRate: rate } : {}) });
  const c = process.cpuUsage(c0);
  console.log(`judge=${judge} rps=${Math.round(r.rps)} cpu/req=${((c.user + c.system) / r.counts.responses).toFixed(1)} errors=${r.counts.errors} findings=${r.conformance?.findings}`);
}
child.kill();
