// A small Dockerfile reader and checker. No docker engine runs where the tests run, so this checks
// what a build would trip on first: unknown instructions, COPY sources missing from the build context
// (or excluded by .dockerignore), `COPY --from` naming a stage that is not defined before it, a stage
// base that is neither the pinned image nor an earlier stage, and a runtime stage running as root.

import { existsSync } from 'node:fs';
import path from 'node:path';

export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

export interface Stage {
  name?: string;
  base: string;
  instructions: Instruction[];
}

const KEYWORDS = new Set(['FROM', 'RUN', 'CMD', 'LABEL', 'EXPOSE', 'ENV', 'ADD', 'COPY', 'ENTRYPOINT', 'VOLUME', 'USER', 'WORKDIR', 'ARG', 'ONBUILD', 'STOPSIGNAL', 'HEALTHCHECK', 'SHELL']);

/** Instructions with line continuations joined and comments dropped. Throws on an unknown keyword. */
export function parseDockerfile(text: string): Instruction[] {
  const out: Instruction[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let line = lines[i];
    if (/^\s*(#|$)/.test(line)) continue;
    while (/\\\s*$/.test(line) && i + 1 < lines.length) line = line.replace(/\\\s*$/, ' ') + lines[++i].replace(/^\s*#.*$/, '');
    const m = /^\s*([A-Za-z]+)\s+(.*)$/.exec(line);
    if (!m || !KEYWORDS.has(m[1].toUpperCase())) throw new Error(`Dockerfile line ${start + 1}: not an instruction: ${line.trim()}`);
    out.push({ keyword: m[1].toUpperCase(), args: m[2].trim(), line: start + 1 });
  }
  return out;
}

export function stagesOf(instructions: Instruction[]): Stage[] {
  const stages: Stage[] = [];
  for (const ins of instructions) {
    if (ins.keyword === 'FROM') {
      const m = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args);
      if (!m) throw new Error(`Dockerfile line ${ins.line}: FROM ${ins.args} is not "image [AS name]"`);
      stages.push({ base: m[1], name: m[2], instructions: [] });
    } else if (ins.keyword !== 'ARG' || stages.length) {
      if (!stages.length) throw new Error(`Dockerfile line ${ins.line}: ${ins.keyword} before the first FROM`);
      stages.at(-1)!.instructions.push(ins);
    }
  }
  return stages;
}

/** COPY's flags and paths; the exec (JSON array) form too. The last path is the destination. */
export function copyParts(args: string): { from?: string; sources: string[]; dest: string } {
  const words = args.split(/\s+/);
  let from: string | undefined;
  while (words[0]?.startsWith('--')) {
    const flag = words.shift()!;
    if (flag.startsWith('--from=')) from = flag.slice('--from='.length);
  }
  const rest = words.join(' ');
  const paths = rest.startsWith('[') ? (JSON.parse(rest) as string[]) : words;
  return { from, sources: paths.slice(0, -1), dest: paths.at(-1)! };
}

/** A .dockerignore line matches the path or one of its parent folders (the patterns this repo uses). */
function ignoredBy(patterns: string[], rel: string): string | undefined {
  const parts = rel.replace(/^\.\/|\/$/g, '').split('/');
  for (const p of patterns) {
    const glob = new RegExp(`^${p.replace(/^\/|\/$/g, '').replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
    for (let i = 1; i <= parts.length; i++) if (glob.test(parts.slice(0, i).join('/'))) return p;
  }
  return undefined;
}

export interface DockerCheckOptions {
  /** Build context directory. */
  context: string;
  dockerignore?: string;
  /** Allowed base image of every stage that is not built from an earlier stage. */
  baseImage: string;
}

/** Problems a `docker build` (or the image at run time) would hit; empty when none were found. */
export function checkDockerfile(text: string, opts: DockerCheckOptions): string[] {
  const problems: string[] = [];
  const stages = stagesOf(parseDockerfile(text));
  const ignore = (opts.dockerignore ?? '').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  if (stages.length < 2) problems.push(`expected a multi-stage build, found ${stages.length} stage(s)`);
  const names = new Set<string>();
  stages.forEach((stage, i) => {
    const label = stage.name ?? `stage ${i}`;
    if (!names.has(stage.base) && stage.base !== opts.baseImage) problems.push(`${label}: FROM ${stage.base} is neither ${opts.baseImage} nor an earlier stage`);
    for (const ins of stage.instructions.filter((x) => x.keyword === 'COPY' || x.keyword === 'ADD')) {
      const { from, sources } = copyParts(ins.args);
      if (from !== undefined) {
        if (!names.has(from)) problems.push(`line ${ins.line}: COPY --from=${from} names no earlier stage (have: ${[...names].join(', ') || 'none'})`);
        else if (from === stage.name) problems.push(`line ${ins.line}: COPY --from=${from} copies from its own stage`);
        continue;
      }
      for (const src of sources) {
        if (!existsSync(path.join(opts.context, src))) problems.push(`line ${ins.line}: COPY source ${src} does not exist in the build context`);
        const rule = ignoredBy(ignore, src);
        if (rule) problems.push(`line ${ins.line}: COPY source ${src} is excluded by .dockerignore (${rule})`);
      }
    }
    if (stage.name) names.add(stage.name);
  });
  const last = stages.at(-1);
  if (last) {
    const user = last.instructions.filter((x) => x.keyword === 'USER').at(-1)?.args;
    if (!user || /^(root|0)(:|$)/.test(user)) problems.push(`the final stage runs as ${user ?? 'root (no USER)'}: set a non-root USER`);
  }
  return problems;
}

/** The final stage's effective command line: ENTRYPOINT + CMD, exec form only. */
export function finalCommand(text: string): { entrypoint: string[]; cmd: string[] } {
  const last = stagesOf(parseDockerfile(text)).at(-1)!;
  const exec = (kw: string) => {
    const ins = last.instructions.filter((x) => x.keyword === kw).at(-1);
    return ins ? (JSON.parse(ins.args) as string[]) : [];
  };
  return { entrypoint: exec('ENTRYPOINT'), cmd: exec('CMD') };
}

/** Absolute destinations the final stage copies to, resolved against its WORKDIR at that point. */
export function finalStageFiles(text: string): string[] {
  const last = stagesOf(parseDockerfile(text)).at(-1)!;
  let workdir = '/';
  const out: string[] = [];
  for (const ins of last.instructions) {
    if (ins.keyword === 'WORKDIR') workdir = path.posix.resolve(workdir, ins.args);
    if (ins.keyword === 'COPY') {
      const { sources, dest } = copyParts(ins.args);
      const target = path.posix.resolve(workdir, dest);
      // `COPY a b ./` puts each source inside dest; `COPY dir ./dir` names the destination itself.
      if (dest.endsWith('/')) for (const s of sources) out.push(path.posix.join(target, path.posix.basename(s)));
      else out.push(target);
    }
  }
  return out;
}
