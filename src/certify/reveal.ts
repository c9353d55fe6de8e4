// `verify --reveal FIELD=VALUE --salts FILE`: a value someone discloses (an e-mail address, say) is
// shown to be the one the run saw, and where: the package's commitments of that kind are opened with
// the salts FILE holds. FILE is the certifier's salts file (certify writes it beside the package) or
// a reveal file cut from it: `--write-reveal OUT` writes the salt of the one confirmed value and
// nothing else, so the certifier discloses that value without the others.

import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readInputFile } from '../input/index.ts';
import { ConfigError } from '../errors/index.ts';
import { COMMIT_KINDS, COMMITMENT, kindOf, opens, SALTS_KIND, type CommitKind, type SaltsFile } from './commit.ts';
import { listFiles } from './digest.ts';
import { PackageVerificationError } from './errors.ts';
import { kindOfField } from './transcript.ts';

export interface Revealed {
  kind: CommitKind;
  commitment: string;
  /** Package files holding the commitment, with the number of places in each. */
  places: Record<string, number>;
}

/** FIELD (a kind, or a field name such as client_secret or access_token) and VALUE of `FIELD=VALUE`. */
export function parseReveal(text: string): { kind: CommitKind; value: string } {
  const i = text.indexOf('=');
  if (i < 1) throw new ConfigError(`--reveal ${text}: give FIELD=VALUE, FIELD one of ${COMMIT_KINDS.join(', ')} or a field name (email, client_secret, access_token, iban, ...)`);
  const field = text.slice(0, i).trim();
  const kind = (COMMIT_KINDS as readonly string[]).includes(field) ? (field as CommitKind) : kindOfField(field);
  if (!kind) throw new ConfigError(`--reveal ${text}: ${field} is not a committed field; give one of ${COMMIT_KINDS.join(', ')}, or a field name such as email or client_secret`);
  return { kind, value: text.slice(i + 1) };
}

export async function readSalts(file: string): Promise<SaltsFile> {
  const { value } = await readInputFile(file, { what: 'salts', format: 'json' });
  const doc = value as SaltsFile;
  if (doc?.kind !== SALTS_KIND || !doc.salts || typeof doc.salts !== 'object') throw new ConfigError(`${file}: not a salts file (kind ${SALTS_KIND}); give the file certify wrote beside the package (OUT.salts.json), or a reveal file cut from it`);
  return doc;
}

/** Opens the package's commitments of `kind` with `salts`; throws naming the value's kind when none opens. */
export async function reveal(dir: string, field: string, salts: SaltsFile, writeTo?: string): Promise<Revealed> {
  const { kind, value } = parseReveal(field);
  const counts = new Map<string, Record<string, number>>();
  for (const file of await listFiles(dir)) {
    const text = await readFile(path.join(dir, file), 'utf8');
    for (const m of text.matchAll(COMMITMENT)) {
      if (kindOf(m[0]) !== kind) continue;
      const per = counts.get(m[0]) ?? {};
      per[file] = (per[file] ?? 0) + 1;
      counts.set(m[0], per);
    }
  }
  for (const [commitment, places] of counts) {
    const salt = salts.salts[commitment];
    if (salt && opens(commitment, kind, value, salt)) {
      if (writeTo) {
        const one: SaltsFile = { kind: SALTS_KIND, ...(salts.runId ? { runId: salts.runId } : {}), salts: { [commitment]: salt } };
        await writeFile(writeTo, `${JSON.stringify(one, null, 2)}\n`);
      }
      return { kind, commitment, places };
    }
  }
  const opened = [...counts.keys()].filter((c) => salts.salts[c]).length;
  throw new PackageVerificationError(dir, [{ file: '(commitments)', problem: `no ${kind} commitment of the package opens to the value given (${counts.size} ${kind} commitment(s) in the package, ${opened} with a salt in the salts given): the run did not see that value, or the salts are of another package` }]);
}
