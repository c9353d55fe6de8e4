// Test helpers for the reference server's own tests: real HTTP over loopback with undici.

import { randomBytes } from 'node:crypto';
import { request, type Dispatcher } from 'undici';
import { createUserRequest, s2sUserHeaders, tokenRequest, userIdOf } from '../client/credentials.ts';
import { loadModel } from '../model/index.ts';
import type { TargetProfile } from '../profile/types.ts';
import { startReference } from './index.ts';
import type { ReferenceOptions, ReferenceServer } from './types.ts';

export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed JSON body (undefined when the body is not JSON). */
  json: unknown;
  /** The JSON body when it is an object (else empty): its fields, unknown until a test narrows them. */
  obj: Readonly<Record<string, unknown>>;
}

export interface Kit {
  ref: ReferenceServer;
  p: TargetProfile;
  call(method: string, path: string, o?: { body?: unknown; raw?: string | Buffer; headers?: Record<string, string>; server?: 'api' | 'pci' | 'control' }): Promise<Res>;
  token(client?: number): Promise<string>;
  /** S2S headers (Authorization + X-Chain-Id) for client `client`. */
  s2s(client?: number): Promise<Record<string, string>>;
  /** Creates a user through POST /api/v2/user; returns id, address, email and headers identifying them. */
  newUser(client?: number): Promise<{ id: string; address: string; email: string; headers: Record<string, string> }>;
  close(): Promise<void>;
}

/** A JSON body's fields when it is an object, else none. */
export function jsonObject(json: unknown): Readonly<Record<string, unknown>> {
  return json !== null && typeof json === 'object' && !Array.isArray(json) ? Object.fromEntries(Object.entries(json)) : {};
}

/** A JSON list's entries as objects (an entry that is not an object reads as one without fields). */
export function items(json: unknown): Readonly<Record<string, unknown>>[] {
  return Array.isArray(json) ? json.map(jsonObject) : [];
}

export function randomEoa(): string {
  return '0x' + randomBytes(20).toString('hex');
}

export async function startKit(opts: ReferenceOptions = {}): Promise<Kit> {
  const ref = await startReference(opts);
  const p = ref.profile;
  const model = await loadModel();
  const tokens = new Map<number, string>();
  const call: Kit['call'] = async (method, path, o = {}) => {
    const base = o.server === 'pci' ? p.pci_url : o.server === 'control' ? p.control_url : p.base_url;
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    let body: string | Buffer | undefined = o.raw;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await request(base + path, { method: method as Dispatcher.HttpMethod, headers, body });
    const text = await res.body.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, headers: res.headers, text, json, obj: jsonObject(json) };
  };
  const token = async (client = 0) => {
    let t = tokens.get(client);
    if (!t) {
      const c = p.clients[client];
      const req = tokenRequest(model, c);
      const r = await call(req.method, req.path, { body: req.body });
      if (r.status !== 200) throw new Error(`token: ${r.status} ${r.text}`);
      if (typeof r.obj.access_token !== 'string') throw new Error(`token: no access_token in ${r.text}`);
      t = r.obj.access_token;
      tokens.set(client, t);
    }
    return t;
  };
  const s2s = async (client = 0) => ({ authorization: `Bearer ${await token(client)}`, [model.auth.chain_header.toLowerCase()]: p.chain_id! });
  const newUser: Kit['newUser'] = async (client = 0) => {
    const address = randomEoa();
    const email = `u-${randomBytes(6).toString('hex')}@example.com`;
    const h = await s2s(client);
    const req = createUserRequest(model, { email, country: 'DE', address });
    const r = await call(req.method, req.path, { body: req.body, headers: { authorization: h.authorization } });
    const id = userIdOf(model, r.json);
    if (r.status !== 200 || !id) throw new Error(`create user: ${r.status} ${r.text}`);
    return { id, address, email, headers: s2sUserHeaders(model, (await token(client)), id, p.chain_id!) };
  };
  return { ref, p, call, token, s2s, newUser, close: () => ref.close() };
}

/** Asserts the section 7 body shape and returns it. */
export function errorBody(r: Pick<Res, 'status' | 'text' | 'json'>): { reason: string; message: string; category: string; code: number; details: string[] } {
  const b = jsonObject(r.json);
  const category = b.error_category;
  if (typeof b.error_reason !== 'string' || typeof b.error_description !== 'string' || category === null || typeof category !== 'object' || !Array.isArray(b.error_details)) {
    throw new Error(`not a section 7 error body (${r.status}): ${r.text}`);
  }
  return {
    reason: b.error_reason,
    message: b.error_description,
    category: 'category' in category ? String(category.category) : '',
    code: 'http_status_code' in category ? Number(category.http_status_code) : NaN,
    details: b.error_details.map((d: unknown) => (d !== null && typeof d === 'object' && 'details' in d ? String(d.details) : '')),
  };
}
