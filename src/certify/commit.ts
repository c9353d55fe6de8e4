// Salted hash commitments: a secret in a certification package (token, secret, card number, CVV, IBAN,
// e-mail address) is replaced by `cmt.KIND.LETTERS`, an HMAC-SHA256 of the value keyed by a random
// per-value salt. The salts stay with the certifier (a salts file beside, never inside, the package):
// anyone can see that two places held the same value (re-judging compares committed values), nobody
// can test a guess, and the certifier can disclose one value by handing out that value's salt alone.
// The digest is written in the letters a-p (one per nibble), so a commitment never contains a digit
// run that a card-number scan would flag. An e-mail commitment keeps the form of an address
// (`...@commit.invalid`, a reserved domain) so a format check still reads it as one.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const COMMIT_KINDS = ['token', 'secret', 'pan', 'cvv', 'iban', 'email'] as const;
export type CommitKind = (typeof COMMIT_KINDS)[number];

export const SALTS_KIND = 'baas-conform/salts';
/** Nibbles of the digest kept: 160 bits. */
const LETTERS = 40;
const EMAIL_DOMAIN = 'commit.invalid';

/**
 * Any commitment, in any text. `cmt-token-LETTERS` is the form in a JWT's signature slot (a JWT keeps
 * its header and claims, PII in them committed, and loses its signature: no longer a credential).
 */
export const COMMITMENT = /cmt[.-](token|secret|pan|cvv|iban|email)[.-][a-p]{40}(?:@commit\.invalid)?/g;

function letters(digest: Buffer): string {
  let out = '';
  for (const byte of digest.subarray(0, LETTERS / 2)) out += String.fromCharCode(97 + (byte >> 4), 97 + (byte & 15));
  return out;
}

/** The commitment of `value` under `salt` (base64url). */
export function commitmentOf(kind: CommitKind, value: string, salt: string): string {
  const digest = createHmac('sha256', Buffer.from(salt, 'base64url')).update(`${kind}\n${value}`).digest();
  const c = `cmt.${kind}.${letters(digest)}`;
  return kind === 'email' ? `${c}@${EMAIL_DOMAIN}` : c;
}

/** The kind a commitment names, or undefined for a string that is not one. */
export function kindOf(commitment: string): CommitKind | undefined {
  const m = /^cmt[.-]([a-z]+)[.-][a-p]{40}(?:@commit\.invalid)?$/.exec(commitment);
  return m && (COMMIT_KINDS as readonly string[]).includes(m[1]) ? (m[1] as CommitKind) : undefined;
}

/** Whether `value` under `salt` is what `commitment` commits to (constant time on the digest). */
export function opens(commitment: string, kind: CommitKind, value: string, salt: string): boolean {
  const want = Buffer.from(commitmentOf(kind, value, salt));
  const got = Buffer.from(commitment.replace(/^cmt-([a-z]+)-/, 'cmt.$1.'));
  return want.length === got.length && timingSafeEqual(want, got);
}

/** The salts file the certifier keeps (or a reveal file: the same format with the disclosed entries only). */
export interface SaltsFile {
  kind: typeof SALTS_KIND;
  /** The package's certificate id (run id) the salts belong to. */
  runId?: string;
  /** commitment -> salt (base64url). */
  salts: Record<string, string>;
}

/** Commits values, one salt per distinct (kind, value): equal values commit equally within a package. */
export class Committer {
  private readonly byValue = new Map<string, string>();
  readonly salts: Record<string, string> = {};

  commit(kind: CommitKind, value: string): string {
    // Already a commitment (a value committed twice, or copied from a committed answer): keep it.
    if (kindOf(value)) return value;
    const key = `${kind}\n${value}`;
    let c = this.byValue.get(key);
    if (!c) {
      const salt = randomBytes(16).toString('base64url');
      c = commitmentOf(kind, value, salt);
      this.salts[c] = salt;
      this.byValue.set(key, c);
    }
    return c;
  }

  get size(): number {
    return this.byValue.size;
  }

  file(runId?: string): SaltsFile {
    return { kind: SALTS_KIND, ...(runId ? { runId } : {}), salts: { ...this.salts } };
  }
}
