// The tokens the audit handed out: which kind (S2S from the token endpoint, user from authorize),
// the expires_at the audit set, and a number that stands for the token in every record and report
// (a token itself never reaches a report). Tokens minted in the same second can be byte-identical, so
// judges count calls; the book only tells them which token a call presented.

export interface IssuedToken {
  kind: 's2s' | 'user';
  n: number;
  clientId?: string;
  /** expires_at handed to the client (Unix seconds): the audit's, for S2S tokens. */
  expiresAtSec?: number;
  issuedSeq: number;
}

export class TokenBook {
  private readonly byValue = new Map<string, IssuedToken>();
  private next = 1;

  issue(value: string, t: Omit<IssuedToken, 'n'>): IssuedToken {
    const prev = this.byValue.get(value);
    const token = { ...t, n: prev?.n ?? this.next++ };
    this.byValue.set(value, token);
    return token;
  }

  /** The token an Authorization header value presents, if the audit issued it. */
  lookup(authorization: string | undefined): IssuedToken | undefined {
    if (!authorization) return undefined;
    const m = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization);
    return m ? this.byValue.get(m[1]) : undefined;
  }

  /** Every token value the audit issued (for redaction). */
  values(): IterableIterator<string> {
    return this.byValue.keys();
  }
}
