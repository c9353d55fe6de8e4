// Test helper (not exported from index.ts): a loopback target that answers setup calls at once and
// GETs in ~0 ms with bodies that conform to each operation's schema, but stalls some of them, or
// answers some with a fault. Misbehaving on purpose, so verdicts are shown to fail.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { loadModel } from '../model/index.ts';
import { resolveProfile, type ResolvedProfile } from '../profile/index.ts';

export interface StallTarget {
  profile: ResolvedProfile;
  base_url: string;
  /** GETs received. */
  gets(): number;
  close(): Promise<void>;
}

export interface StallOptions {
  /** Stall the GETs for which this returns a delay in ms (0: answer at once). */
  delayFor(n: number, req: IncomingMessage): number;
  /** Seconds until tokens expire (expires_at); default 48 h. */
  tokenTtlSec?: number;
  /** Answer request n (1-based, every request) with this instead of the conforming body: a fault. */
  fault?: (n: number, req: IncomingMessage) => Fault | undefined;
}

const UID = '00000000-0000-4000-8000-000000000001';
/** Bodies that conform to each operation's schema (spec/openapi.yaml), by operationId. */
function conforming(op: string | undefined, token: string, expiresAt: number): unknown {
  const user = { id: UID, user_id: UID, user_address: '0xabc', wallet_address: '0xabc' };
  switch (op) {
    case 'createToken':
      return { access_token: token, token_type: 'Bearer', expires_at: expiresAt };
    case 'authorizeUser':
      return { access_token: token, expires_at: expiresAt };
    case 'getUserV1':
      return user;
    case 'getUserV2':
      return { ...user, capabilities: [] };
    case 'listCards':
    case 'listWallets':
      return { data: [] };
    case 'createVirtualCard':
      return { id: 'card-1', status: 'Active', card_data: { card_name: 'x', format: 'virtual' } };
    case 'createRecipientV2':
      return { id: 'r-1', payment_details: { id: 'pd-1', type: 'Sepa', sepa: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' } } };
    default:
      return { id: UID, user_id: UID };
  }
}

/** A faulty answer: its status, body (pieces are flushed apart, so the client reads them in separate chunks) and headers. */
export interface Fault {
  status: number;
  body: string | string[];
  contentType?: string;
  /** Replaces the content-type header, names written as given (a mixed-case name, a duplicate). */
  headers?: Record<string, string | string[]>;
}

function writePieces(res: ServerResponse, pieces: string[], i = 0): void {
  if (res.destroyed) return;
  if (i === pieces.length - 1) {
    res.end(pieces[i]);
    return;
  }
  res.write(pieces[i]);
  setTimeout(() => writePieces(res, pieces, i + 1), 2).unref();
}

export async function stallTarget(o: StallOptions): Promise<StallTarget> {
  // METHOD path -> operationId, from the model.
  const model = await loadModel();
  const byRoute = new Map([...model.operations.values()].map((op) => [`${op.method.toUpperCase()} ${op.path}`, op.operationId as string]));
  let gets = 0;
  let tokens = 0;
  let all = 0;
  const server: Server = createServer((req, res) => {
    const n = ++all;
    const reply = () => {
      if (res.destroyed) return;
      const f = o.fault?.(n, req);
      if (f) {
        res.writeHead(f.status, f.headers ?? { 'content-type': f.contentType ?? 'application/json' });
        if (typeof f.body === 'string') res.end(f.body);
        else writePieces(res, f.body);
        return;
      }
      const body = conforming(byRoute.get(`${req.method} ${(req.url ?? '/').split('?')[0]}`), `eyJ0.t0ken${++tokens}.sig`, Math.floor(Date.now() / 1000) + (o.tokenTtlSec ?? 172_800));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    req.resume();
    req.on('end', () => {
      const delay = req.method === 'GET' ? o.delayFor(++gets, req) : 0;
      if (delay > 0) setTimeout(reply, delay).unref();
      else reply();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base_url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base_url,
    profile: resolveProfile({ base_url, clients: [{ client_id: 'a', client_secret: 'secret-a' }] }, { env: {} }),
    gets: () => gets,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Every `every`-th GET stalls `ms` milliseconds. */
export const everyNth = (every: number, ms: number) => (n: number) => (n % every === 0 ? ms : 0);

export interface LossyProxy {
  base_url: string;
  /** Creations acknowledged without being forwarded (lost). */
  lost(): number;
  close(): Promise<void>;
}

/**
 * A loopback proxy in front of `upstream` that loses writes: every `every`-th creation of a user or a
 * card (POST /api/v2/user, POST /api/v1/cards/virtual), counted across concurrent requests, is answered
 * 200 with a conforming body and a fresh id but never forwarded. Everything else is passed through.
 */
export interface ProxyOptions {
  /** Store every n-th card under another name than the one sent. */
  alterCardEvery?: number;
  /** Answer a request with this instead of forwarding it. */
  fault?: (method: string, path: string) => { status: number; body: string } | undefined;
  /** Rewrite a forwarded JSON answer (a reading the spec allows, or a fault). */
  rewrite?: (method: string, path: string, json: unknown) => unknown;
}

export async function lossyProxy(upstream: string, every: number, o: ProxyOptions = {}): Promise<LossyProxy> {
  // Paths from the model (the only source of them).
  const model = await loadModel();
  const userPath = model.operation('createUserV2').path;
  const cardPath = model.operation('createVirtualCard').path;
  let writes = 0;
  let lost = 0;
  let cards = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      const path = (req.url ?? '/').split('?')[0];
      const f = o.fault?.(req.method ?? 'GET', path);
      if (f) {
        res.writeHead(f.status, { 'content-type': 'application/json' }).end(f.body);
        return;
      }
      const creation = req.method === 'POST' && (path === userPath || path === cardPath);
      if (creation && ++writes % every === 0) {
        lost++;
        const id = randomUUID();
        let sent: { card_name?: string } = {};
        try {
          sent = JSON.parse(body.toString('utf8'));
        } catch {
          /* not JSON: the fake answer still carries an id */
        }
        const fake = path === userPath ? { id, user_id: id } : { id, status: 'Active', card_data: { card_name: sent.card_name ?? 'x', format: 'virtual' } };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(fake));
        return;
      }
      // Optionally store another card name than the one sent (the answer is the upstream's, as stored).
      if (o.alterCardEvery && req.method === 'POST' && path === cardPath && ++cards % o.alterCardEvery === 0) {
        const b = JSON.parse(body.toString('utf8')) as { card_name?: string };
        body = Buffer.from(JSON.stringify({ ...b, card_name: `${b.card_name ?? ''} (altered)` }));
      }
      const headers = { ...req.headers };
      delete headers.host;
      delete headers['content-length'];
      fetch(new URL(req.url ?? '/', upstream), { method: req.method, headers: headers as Record<string, string>, ...(body.length ? { body } : {}) }).then(
        async (r) => {
          let text = Buffer.from(await r.arrayBuffer());
          if (o.rewrite && text.length) {
            try {
              text = Buffer.from(JSON.stringify(o.rewrite(req.method ?? 'GET', path, JSON.parse(text.toString('utf8')))));
            } catch {
              /* not JSON: passed through */
            }
          }
          const out: Record<string, string> = {};
          r.headers.forEach((v, k) => {
            if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection' && k !== 'keep-alive' && k !== 'content-encoding') out[k] = v;
          });
          res.writeHead(r.status, out).end(text);
        },
        () => res.writeHead(502).end(),
      );
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base_url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    lost: () => lost,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
