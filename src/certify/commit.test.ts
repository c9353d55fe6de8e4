// Commitments: the same value commits alike within a package, opens only with its salt and value,
// never shows a digit run a card scan would flag; the transcript pass commits e-mail addresses,
// card numbers, CVV, IBANs, secrets and tokens by field name and by shape, and keeps a JWT's claims.
import { describe, expect, it } from 'vitest';
import { Committer, COMMITMENT, commitmentOf, kindOf, opens } from './commit.ts';
import { commitBody, commitJwt, commitText, luhn } from './transcript.ts';

const jwt = (claims: object) => `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2lnbmF0dXJlLWJ5dGVz`;

describe('commitments', () => {
  it('commit a value alike within a package, and open only with its salt and value', () => {
    const c = new Committer();
    const a = c.commit('email', 'alice@example.com');
    expect(c.commit('email', 'alice@example.com')).toBe(a);
    expect(c.commit('email', 'bob@example.com')).not.toBe(a);
    expect(a).toMatch(/^cmt\.email\.[a-p]{40}@commit\.invalid$/);
    expect(kindOf(a)).toBe('email');
    const salt = c.salts[a];
    expect(opens(a, 'email', 'alice@example.com', salt)).toBe(true);
    expect(opens(a, 'email', 'alice@example.org', salt)).toBe(false);
    expect(opens(a, 'email', 'alice@example.com', c.salts[c.commit('email', 'bob@example.com')])).toBe(false);
    // Another package (another salt) commits the same value differently: no guessing across packages.
    expect(new Committer().commit('email', 'alice@example.com')).not.toBe(a);
    expect(commitmentOf('pan', '4111111111111111', salt)).not.toMatch(/[0-9]/);
  });

  it('commit secrets by field name and by shape; leave the rest as it was', () => {
    const c = new Committer();
    const body = commitBody(JSON.stringify({
      email: 'x@example.com', card_number: '4111 1111 1111 1111', cvv: '123', iban: 'DE89370400440532013000', client_secret: 's3cr3t-value',
      note: 'card 5555555555554444 and DE89 3704 0044 0532 0130 00 for carol@example.net', token_type: 'Bearer', country: 'DE', amount: 1234567890123456,
    }), c);
    const doc = JSON.parse(body);
    expect(doc.email).toMatch(/^cmt\.email\./);
    expect(doc.card_number).toBe(c.commit('pan', '4111111111111111'));
    expect(doc.cvv).toMatch(/^cmt\.cvv\./);
    expect(doc.iban).toMatch(/^cmt\.iban\./);
    expect(doc.client_secret).toMatch(/^cmt\.secret\./);
    expect(doc.note).toBe(`card ${c.commit('pan', '5555555555554444')} and ${c.commit('iban', 'DE89370400440532013000')} for ${c.commit('email', 'carol@example.net')}`);
    expect(doc).toMatchObject({ token_type: 'Bearer', country: 'DE', amount: 1234567890123456 });
    expect(luhn('4111111111111111')).toBe(true);
    expect(commitText('Bearer token is not in the correct format', c)).toBe('Bearer token is not in the correct format');
    expect(commitText('client_secret=abc%2Fdef&grant_type=x', c)).toBe(`client_secret=${c.commit('secret', 'abc/def')}&grant_type=x`);
    expect(commitText('-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----', c)).toMatch(/^cmt\.secret\.[a-p]{40}$/);
  });

  it('a JWT keeps its claims (PII committed) and loses its signature to the commitment of the whole token', () => {
    const c = new Committer();
    const token = jwt({ sub: 'u-1', email: 'dave@example.com', exp: 1 });
    const out = commitJwt(token, c);
    const [h, p, sig] = out.split('.');
    expect(h).toBe(token.split('.')[0]);
    expect(JSON.parse(Buffer.from(p, 'base64url').toString())).toEqual({ sub: 'u-1', email: c.commit('email', 'dave@example.com'), exp: 1 });
    expect(sig).toMatch(/^cmt-token-[a-p]{40}$/);
    expect(commitJwt(out, c)).toBe(out);
    expect(opens(sig, 'token', token, c.salts[sig.replace(/^cmt-token-/, 'cmt.token.')])).toBe(true);
    expect([...`x ${out} y`.matchAll(COMMITMENT)].map((m) => m[0])).toEqual([sig]);
  });
});
