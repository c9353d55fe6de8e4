#!/usr/bin/env node
// Launcher for the `baas-conform` command. Plain JS, so it runs without any build step.
// - An installed package (npm install, the packed tarball, the container image) ships compiled JS in
//   dist/ and no TypeScript sources: it runs dist/src/cli/index.js with plain node (no tsx).
// - A source checkout (src/cli/index.ts beside this file, tsx installed as a devDependency) runs the
//   sources through tsx: `npm ci && npx baas-conform run` needs no build, and a dist/ left over from
//   an earlier `npm run build` can never run older code than the sources you are editing.
//   BAAS_CONFORM_DIST=1 makes a checkout run its compiled dist/ instead (after `npm run build`).
import { existsSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const sources = new URL('src/cli/index.ts', root);
const compiled = new URL('dist/src/cli/index.js', root);

async function sourceEntry() {
  if (process.env.BAAS_CONFORM_DIST === '1' || !existsSync(sources)) return undefined;
  try {
    const { register } = await import('tsx/esm/api');
    register();
    return sources;
  } catch {
    return undefined; // a checkout installed without devDependencies: fall back to dist/ when built
  }
}

// `baas-conform rules | head`: a closed pipe ends the output, it is not a crash.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

const entry = (await sourceEntry()) ?? (existsSync(compiled) ? compiled : undefined);
if (!entry) {
  const why = process.env.BAAS_CONFORM_DIST === '1' ? 'BAAS_CONFORM_DIST=1 but dist/ is not built' : 'no compiled code in dist/ and no tsx to run the sources';
  process.stderr.write(`baas-conform: ${why}: run \`npm run build\` (or \`npm ci\` in a source checkout)\n`);
  process.exitCode = 2;
} else {
  const { main } = await import(entry.href);
  process.exitCode = await main(process.argv.slice(2));
}
