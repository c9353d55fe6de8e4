import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/package/index.ts';
import { checkDockerfile, finalCommand, finalStageFiles, parseDockerfile, stagesOf } from './dockerfile.ts';

const read = (f: string) => readFile(path.join(PACKAGE_ROOT, f), 'utf8');
const dockerfile = await read('Dockerfile');
const dockerignore = await read('.dockerignore');
const opts = { context: PACKAGE_ROOT, dockerignore, baseImage: 'node:20-slim' };

describe('Dockerfile', () => {
  it('parses, and every COPY source exists, is not ignored, and every stage reference is an earlier stage', () => {
    expect(checkDockerfile(dockerfile, opts)).toEqual([]);
  });

  it('runs `run` by default through the launcher, as a non-root user, from compiled code only', async () => {
    const { entrypoint, cmd } = finalCommand(dockerfile);
    expect(cmd).toEqual(['run']);
    expect(entrypoint[0]).toBe('node');
    const files = finalStageFiles(dockerfile);
    // The entrypoint script is one the final stage copies, and it is the package's bin.
    const binDir = files.find((f) => entrypoint[1].startsWith(`${f}/`));
    expect(binDir, `${entrypoint[1]} is not copied into the final stage`).toBeDefined();
    const pkg = JSON.parse(await read('package.json')) as { bin: Record<string, string>; files: string[] };
    expect(path.posix.join(path.posix.basename(binDir!), entrypoint[1].slice(binDir!.length + 1))).toBe(pkg.bin['baas-conform']);
    const root = path.posix.dirname(binDir!);
    expect(files).toContain(`${root}/dist`);
    expect(files).toContain(`${root}/node_modules`);
    expect(files).toContain(`${root}/package.json`);
    // No TypeScript sources in the image: the launcher then runs dist/ (see bin/baas-conform.js).
    expect(files).not.toContain(`${root}/src`);
    // Every data folder the package ships is in the image too (examples/ are for reading, not running).
    for (const entry of pkg.files.filter((f) => !f.startsWith('!') && !/^(dist|examples)\/?$/.test(f))) {
      expect(files, `package.json files entry ${entry} is missing from the image`).toContain(`${root}/${entry.replace(/\/$/, '')}`);
    }
  });

  it('the build stage copies every tree tsconfig.build.json compiles', async () => {
    const build = JSON.parse(await read('tsconfig.build.json')) as { include: string[]; extends?: string };
    const stage = stagesOf(parseDockerfile(dockerfile)).find((s) => s.instructions.some((i) => i.keyword === 'RUN' && /npm run build/.test(i.args)))!;
    expect(stage, 'no stage runs npm run build').toBeDefined();
    const copied = stage.instructions.filter((i) => i.keyword === 'COPY').flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    for (const dir of [...build.include, 'tsconfig.build.json', build.extends?.replace(/^\.\//, '') ?? 'tsconfig.json']) expect(copied).toContain(dir);
    for (const dir of build.include) expect(existsSync(path.join(PACKAGE_ROOT, dir))).toBe(true);
  });

  describe('the checker catches a broken Dockerfile', () => {
    const stage2 = (body: string) => `FROM node:20-slim AS build\nWORKDIR /app\nCOPY package.json ./\nFROM node:20-slim AS runtime\n${body}\nUSER node\n`;
    it.each([
      ['a missing COPY source', stage2('COPY no-such-dir ./x'), /no-such-dir does not exist/],
      ['a source .dockerignore excludes', stage2('COPY node_modules ./node_modules'), /excluded by \.dockerignore/],
      ['COPY --from an undefined stage', stage2('COPY --from=builder /app/dist ./dist'), /names no earlier stage/],
      ['COPY --from a later stage', `FROM node:20-slim AS a\nCOPY --from=b /x /x\nFROM node:20-slim AS b\nUSER node\n`, /--from=b names no earlier stage/],
      ['another base image', stage2('').replace('FROM node:20-slim AS runtime', 'FROM node:22 AS runtime'), /FROM node:22 is neither/],
      ['a root runtime', stage2('').replace('USER node', 'USER root'), /runs as root/],
      ['no USER at all', stage2('').replace('USER node\n', ''), /runs as root \(no USER\)/],
      ['a single stage', 'FROM node:20-slim\nUSER node\n', /multi-stage/],
    ])('%s', (_name, text, problem) => {
      expect(checkDockerfile(text, opts).join('\n')).toMatch(problem);
    });

    it('an unknown instruction is a parse error naming the line', () => {
      expect(() => parseDockerfile('FROM node:20-slim\nCOPPY a b\n')).toThrow(/line 2: not an instruction/);
    });

    it('joins continuation lines', () => {
      expect(parseDockerfile('FROM node:20-slim\nRUN a \\\n  && b\n')[1]).toMatchObject({ keyword: 'RUN', line: 2 });
    });
  });
});
