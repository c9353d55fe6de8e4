// `npm test`: the type check, the lint and vitest at once, not one after another. tsc and eslint each
// use one core for a minute or so while vitest's first files mostly wait (servers, held answers,
// child processes); in sequence they were a minute of wall time before the first test ran.
// Arguments go to vitest (`npm test -- src/client`). The exit code is 1 when any of the three fails.
// tsc's and eslint's output is printed when each ends (after vitest's, when it ends first), so it is
// never interleaved with vitest's.

import { spawn } from 'node:child_process';

/** Runs `cmd` (found on npm's PATH: node_modules/.bin), its output kept until it ends. */
function quiet(name, cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    const out = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => out.push(c));
    child.on('error', (err) => out.push(Buffer.from(`${name}: ${err.message}\n`)));
    child.on('close', (code) => {
      const text = Buffer.concat(out).toString();
      if (code !== 0 || text.trim()) process.stdout.write(`\n--- ${name} (exit ${code}) ---\n${text}`);
      resolve(code === 0 ? 0 : 1);
    });
  });
}

function loud(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', shell: process.platform === 'win32' });
    child.on('error', (err) => {
      process.stderr.write(`${cmd}: ${err.message}\n`);
      resolve(1);
    });
    child.on('close', (code) => resolve(code === 0 ? 0 : 1));
  });
}

const results = await Promise.all([
  quiet('tsc -p tsconfig.json --noEmit', 'tsc', ['-p', 'tsconfig.json', '--noEmit']),
  quiet('npm run lint', 'npm', ['run', '-s', 'lint']),
  loud('vitest', ['run', ...process.argv.slice(2)]),
]);
process.exitCode = results.some((r) => r !== 0) ? 1 : 0;
