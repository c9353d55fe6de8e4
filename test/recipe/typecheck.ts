// `tsc -p tsconfig.json --noEmit` on the recipe's scratch copy, kept alive between the recipe's steps:
// each line on stdin typechecks the copy as it is now and answers with tsc's own diagnostics and a
// closing `typecheck: exit N` line, the same text and exit code a fresh tsc gives. The second check
// re-parses only the files that changed and re-checks only the files they can affect (TypeScript's
// builder, what `tsc --watch` uses): 5-5.7 s of CPU after the recipe's last steps, where a second
// `tsc --incremental` re-read, re-parsed and re-bound the whole program first (9.5-10 s).
//   node --import tsx test/recipe/typecheck.ts <dir>

import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import path from 'node:path';
import type * as TS from 'typescript';

// Required, not imported: through tsx's import hook TypeScript's 9 MB bundle took 1.0 s of CPU to load, through require 0.5 s.
const ts = createRequire(import.meta.url)('typescript') as typeof TS;

const dir = path.resolve(process.argv[2] ?? '.');
const configPath = path.join(dir, 'tsconfig.json');
const formatHost: TS.FormatDiagnosticsHost = { getCurrentDirectory: () => dir, getCanonicalFileName: (f) => f, getNewLine: () => '\n' };

/** A parsed source file per path, reused while its text is unchanged (the builder then keeps its diagnostics). */
const parsed = new Map<string, TS.SourceFile>();
let previous: TS.SemanticDiagnosticsBuilderProgram | undefined;

function check(): { code: number; out: string } {
  const configErrors: TS.Diagnostic[] = [];
  const config = ts.getParsedCommandLineOfConfigFile(configPath, { noEmit: true }, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => configErrors.push(d) });
  if (!config) return { code: 1, out: ts.formatDiagnostics(configErrors, formatHost) };
  const host = ts.createIncrementalCompilerHost(config.options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, fresh) => {
    const text = host.readFile(fileName);
    const kept = parsed.get(fileName);
    if (!fresh && kept && text === kept.text) return kept;
    const sf = read(fileName, languageVersion, onError, fresh);
    if (sf) parsed.set(fileName, sf);
    return sf;
  };
  const builder = ts.createSemanticDiagnosticsBuilderProgram(config.fileNames, config.options, host, previous, ts.getConfigFileParsingDiagnostics(config), config.projectReferences);
  previous = builder;
  // What tsc reports, in its order: semantic diagnostics only when the files parse and the options hold.
  const diagnostics = [...builder.getConfigFileParsingDiagnostics()];
  const clean = () => diagnostics.length === builder.getConfigFileParsingDiagnostics().length;
  diagnostics.push(...builder.getSyntacticDiagnostics());
  if (clean()) diagnostics.push(...builder.getOptionsDiagnostics(), ...builder.getGlobalDiagnostics());
  if (clean()) diagnostics.push(...builder.getSemanticDiagnostics());
  const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
  // tsc's exit code when it reports errors without emitting: 2 (DiagnosticsPresent_OutputsGenerated under --noEmit).
  return { code: errors > 0 ? 2 : 0, out: ts.formatDiagnostics(ts.sortAndDeduplicateDiagnostics(diagnostics), formatHost) };
}

for await (const _ of createInterface({ input: process.stdin })) {
  const r = check();
  process.stdout.write(`${r.out}typecheck: exit ${r.code}\n`);
}
