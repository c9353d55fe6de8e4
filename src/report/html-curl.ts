// Replayable curl commands for the HTML report. The recorded request has every secret masked as
// `***`; here the masked token and client secret become environment variables, and the command
// that mints a token (its client secret also from the environment) is written beside it. No secret
// value is ever known to the report, so none can be written.

import type { RecordedRequest } from '../events/index.ts';
import type { Model } from '../model/types.ts';
import { MASK } from '../profile/mask.ts';

import { operationAtUrl } from '../client/operation-location.ts';

/** Environment variables the commands read. */
export const REPLAY_ENV = {
  token: 'BAAS_TOKEN',
  s2sToken: 'BAAS_S2S_TOKEN',
  identityToken: 'BAAS_IDENTITY_TOKEN',
  clientId: 'BAAS_CLIENT_ID',
  clientSecret: 'BAAS_CLIENT_SECRET',
  userWallet: 'BAAS_USER_WALLET',
} as const;

export interface ReplayCurl {
  /** The curl command, secrets read from environment variables. */
  command: string;
  /** Commands that mint the token the command reads (empty when it sends none). */
  mint: string[];
  /** Environment variables the user sets by hand (client id and secret, wallet). */
  env: string[];
  /** True when masked values other than tokens and the client secret remain as `***`. */
  stillMasked: boolean;
}

type Piece = string | { env: string };

/** Single-quotes text for a POSIX shell, leaving `{ env }` pieces as double-quoted expansions. */
function shell(pieces: Piece[]): string {
  const out: string[] = [];
  let literal = '';
  const flush = () => {
    if (literal) out.push(`'${literal.replace(/'/g, `'\\''`)}'`);
    literal = '';
  };
  for (const p of pieces) {
    if (typeof p === 'string') literal += p;
    else {
      flush();
      out.push(`"$${p.env}"`);
    }
  }
  flush();
  return out.join('') || "''";
}

/** Splits `text` at each `find` literal into pieces, putting `{ env }` where it was. */
function substitute(text: string, find: string, env: string): Piece[] {
  const parts = text.split(find);
  return parts.flatMap((part, i) => (i === 0 ? [part] : [{ env }, part]));
}

const SECRET_JSON_FIELD = `"client_secret":"${MASK}"`;
const SECRET_FORM_FIELD = `client_secret=${MASK}`;

/** The grant type, or undefined for a model (another --spec) whose token request has none: no command then. */
function grantTypeOrNone(model: Model): string | undefined {
  try {
    return model.grantType();
  } catch {
    return undefined;
  }
}

const READ_TOKEN = `node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>console.log(JSON.parse(s).access_token))'`;

/** `export VAR="$(curl … token request …)"`: the S2S client-credentials request from the model. */
export function mintS2sCommand(model: Model, baseUrl: string, into: string = REPLAY_ENV.token): string | undefined {
  const op = model.operations.get('createToken');
  const grant = grantTypeOrNone(model);
  if (!op || !grant) return undefined;
  const body: Piece[] = ['{"client_id":"', { env: REPLAY_ENV.clientId }, '","client_secret":"', { env: REPLAY_ENV.clientSecret }, `","grant_type":${JSON.stringify(grant)}}`];
  const curl = ['curl', '-sS', '-X', op.method.toUpperCase(), shell([`${baseUrl}${op.path}`]), '-H', shell(['content-type: application/json']), '--data-raw', shell(body)];
  return `export ${into}="$(${curl.join(' ')} | ${READ_TOKEN})"`;
}

/** The user-token request (section 5: S2S token, X-User-Wallet, chain header) from the model. */
export function mintUserCommand(model: Model, baseUrl: string, chainId: string | undefined): string | undefined {
  const op = model.operations.get('authorizeUser');
  const wallet = model.auth.identity_headers.find((h) => /wallet/i.test(h));
  if (!op || !wallet) return undefined;
  const curl = [
    'curl', '-sS', '-X', op.method.toUpperCase(), shell([`${baseUrl}${op.path}`]),
    '-H', shell(['Authorization: Bearer ', { env: REPLAY_ENV.s2sToken }]),
    '-H', shell([`${wallet}: `, { env: REPLAY_ENV.userWallet }]),
    '-H', shell([`${model.auth.chain_header}: ${chainId ?? model.auth.sandbox_chain_id ?? ''}`]),
  ];
  return `export ${REPLAY_ENV.token}="$(${curl.join(' ')} | ${READ_TOKEN})"`;
}

/**
 * A curl command replaying `req` against `baseUrl`'s target. A user-scoped call without identity
 * headers was made with a user token, so the user-token mint is shown; otherwise the S2S one.
 */
export function replayCurl(model: Model, req: RecordedRequest, baseUrl: string, traced = false): ReplayCurl {
  const parts = ['curl', '-sS', '-i'];
  const env = new Set<string>();
  const mint: string[] = [];
  let usesToken = false;
  let stillMasked = false;
  if (req.method !== 'GET' || req.body !== undefined) parts.push('-X', req.method);
  parts.push(shell([req.url]));
  // curl negotiates and decodes compression itself with --compressed; a raw accept-encoding header
  // would print the compressed bytes.
  const compressed = Object.keys(req.headers).some((k) => k.toLowerCase() === 'accept-encoding');
  if (compressed) parts.push('--compressed');
  // The trace headers our client added (traced) name the recorded attempt; a replay is a new request.
  const dropped = ['user-agent', 'accept-encoding', ...(traced ? ['traceparent', 'x-request-id'] : [])];
  const headers = Object.entries(req.headers).filter(([k]) => !dropped.includes(k.toLowerCase()));
  const lower = new Set(headers.map(([k]) => k.toLowerCase()));
  for (const [k, v] of headers) {
    const name = k.toLowerCase();
    let pieces: Piece[] = [`${k}: ${v}`];
    if ((name === 'authorization' || name === 'identity') && v.includes(MASK)) {
      const envName = name === 'authorization' ? REPLAY_ENV.token : REPLAY_ENV.identityToken;
      pieces = substitute(`${k}: ${v}`, MASK, envName);
      if (name === 'authorization') usesToken = true;
      else env.add(REPLAY_ENV.identityToken);
    } else if (v.includes(MASK)) stillMasked = true;
    parts.push('-H', shell(pieces));
  }
  if (req.body !== undefined) {
    // The client secret of a token request (JSON or form) is masked in the record: read it from the environment.
    let pieces: Piece[] = [req.body];
    for (const [field, before, after] of [[SECRET_JSON_FIELD, '"client_secret":"', '"'], [SECRET_FORM_FIELD, 'client_secret=', '']] as const) {
      pieces = pieces.flatMap((p): Piece[] => (typeof p === 'string' ? p.split(field).flatMap((part, i): Piece[] => (i === 0 ? [part] : [before, { env: REPLAY_ENV.clientSecret }, after, part])) : [p]));
    }
    if (pieces.some((p) => typeof p !== 'string')) env.add(REPLAY_ENV.clientSecret);
    if (pieces.some((p) => typeof p === 'string' && p.includes(MASK))) stillMasked = true;
    parts.push('--data-raw', shell(pieces));
  }
  if (usesToken) {
    // The report holds no profile: only the paths the spec shows name an operation here.
    const id = operationAtUrl(model, {})(req.method, req.url);
    const op = id ? model.operations.get(id) : undefined;
    const identified = model.auth.identity_headers.some((h) => lower.has(h.toLowerCase()));
    const userToken = !!op?.userScoped && !identified;
    const chain = headers.find(([k]) => k.toLowerCase() === model.auth.chain_header.toLowerCase())?.[1];
    if (userToken) {
      const s2s = mintS2sCommand(model, baseUrl, REPLAY_ENV.s2sToken);
      const user = mintUserCommand(model, baseUrl, chain);
      if (s2s && user) mint.push(s2s, user);
      env.add(REPLAY_ENV.userWallet);
    } else {
      const s2s = mintS2sCommand(model, baseUrl);
      if (s2s) mint.push(s2s);
    }
    env.add(REPLAY_ENV.clientId).add(REPLAY_ENV.clientSecret);
  }
  return { command: parts.join(' '), mint, env: [...env], stillMasked };
}
