// A playback target: loopback servers (127.0.0.1, one per origin the transcript names: api, pci,
// control) that answer every request from a recorded HAR instead of a live implementation, so a
// certificate's checks can be judged again from its evidence alone (verify --rejudge). Nothing leaves
// the machine and no original target is needed.
//
// Matching: the check running now (setCheck; the re-judging run has one check at a time) takes its
// recorded exchanges in order. A request is answered by the first unused exchange of that check with
// the same method and the same route (same path, segment by segment, up to values learned below);
// a request no exchange of the check matches (a token the recording minted in another check, the
// run's token cache being shared) is answered by any exchange of the transcript whose method, path and
// body are the same. A request nothing matches is refused (its connection destroyed) and noted.
//
// Values the run makes itself, apart from its seed (a random e-mail suffix, an address, a clock
// time), differ from the recording's: where the request differs from the recorded one at the same
// place (path segment, query value, header, JSON member), the recorded value is mapped to the new
// one, and the check's later answers carry the new value wherever the recording had the old. An
// answer is otherwise sent as recorded, byte for byte: an edited answer reaches the check as edited.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Har, HarEntry } from '../report/har.ts';
import { credentialOf, differing, jsonOf, JWT_WHOLE, leaves, segmentsMatch, shapeOf, similarity, VALUE } from './playback-match.ts';

/** Values shorter than this are never mapped: "DE" or "true" would be replaced everywhere. */
const MIN_MAPPED = 6;
/** Headers that differ on every attempt by design, or that the client sets itself. */
const NOT_COMPARED = new Set(['traceparent', 'x-request-id', 'user-agent', 'content-length', 'host', 'connection', 'accept-encoding', 'transfer-encoding']);
/** Response headers not replayed: the playback server frames the answer itself. */
const NOT_SENT = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive', 'date']);
const MAX_REQUEST_BYTES = 1024 * 1024;

export interface CheckPlayback {
  /** Requests nothing in the transcript answers, each `METHOD path: why`. */
  unmatched: string[];
  /** The check's own recorded exchanges no request asked for. */
  unused: number;
  /** The check's own recorded exchanges that answered another check's request, each `entry by check`. */
  takenBy: string[];
  /** Values the check generated that differ from the recording's (mapped, see above). */
  mapped: number;
  /** Entries (1-based) whose answers the check received. */
  entries: number[];
}

interface Recorded {
  n: number;
  e: HarEntry;
  origin: string;
  url: URL;
  used: boolean;
  /** The check it answered (first time). */
  by?: string;
}

/** The same path segment by segment, each equal or the recorded one mapped to it (not merely alike in shape). */
function samePath(rec: URL, now: URL, map: Map<string, string>): boolean {
  const [a, b] = [rec.pathname.split('/'), now.pathname.split('/')];
  return a.length === b.length && a.every((x, i) => x === b[i] || map.get(decodeURIComponent(x)) === decodeURIComponent(b[i]));
}

function routeMatches(r: Recorded, method: string, url: URL, map: Map<string, string>): boolean {
  if (r.e.request.method.toUpperCase() !== method) return false;
  const [a, b] = [r.url.pathname.split('/'), url.pathname.split('/')];
  return a.length === b.length && a.every((s, i) => segmentsMatch(s, b[i], map));
}

export class Playback {
  private readonly servers = new Map<string, { server: Server; url: string }>();
  private readonly recorded: Recorded[];
  private current?: string;
  private readonly state = new Map<string, CheckPlayback>();
  /**
   * Recorded value -> the value the re-judging run made in its place. One map for the run: a value one
   * check makes (a shared user's address) reaches another check's answers too.
   */
  private readonly map = new Map<string, string>();
  /** Requests outside any check (the run's own housekeeping), as unmatched notes. */
  readonly outside: string[] = [];

  /** Entries whose answer carries a value another check's requests sent: made once, shared by the run. */
  private readonly shared = new Set<number>();

  private constructor(har: Har) {
    this.recorded = har.log.entries.map((e, i) => {
      const url = new URL(e.request.url);
      return { n: i + 1, e, origin: url.origin, url, used: false };
    });
    // Where each value first appears in an answer, then which later requests send it: an exchange is
    // shared when another check sends a value of its answer, or a request that does is itself shared
    // (the card token behind a shared recipient).
    const origin = new Map<string, number>();
    const sends = new Map<number, number[]>();
    for (const r of this.recorded) {
      const sent = [...r.url.pathname.split('/').map(decodeURIComponent), ...r.url.searchParams.values(), ...r.e.request.headers.flatMap((h) => h.value.split(/\s+/)), ...leaves(jsonOf(r.e.request.postData?.text))];
      for (const v of new Set(sent)) {
        const from = origin.get(v);
        if (from !== undefined && VALUE.test(v)) sends.set(from, [...(sends.get(from) ?? []), r.n]);
      }
      for (const v of leaves(jsonOf(r.e.response.content.text))) if (VALUE.test(v) && !origin.has(v)) origin.set(v, r.n);
    }
    const at = (n: number) => this.recorded[n - 1];
    for (let pass = 0; pass < 4; pass++) {
      for (const r of [...this.recorded].reverse()) {
        if (this.shared.has(r.n)) continue;
        if ((sends.get(r.n) ?? []).some((n) => at(n).e._check !== r.e._check || this.shared.has(n))) this.shared.add(r.n);
      }
    }
  }

  /** Starts one loopback server per origin the transcript names. */
  static async start(har: Har): Promise<Playback> {
    const p = new Playback(har);
    try {
      for (const origin of new Set(p.recorded.map((r) => r.origin))) {
        const server = createServer((req, res) => p.answer(origin, req, res));
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(0, '127.0.0.1', resolve);
        });
        p.servers.set(origin, { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
      }
    } catch (err) {
      await p.close();
      throw err;
    }
    return p;
  }

  /** The playback URL standing for a recorded origin (or base URL: its path is kept). */
  urlFor(recorded: string): string | undefined {
    const u = new URL(recorded);
    const s = this.servers.get(u.origin);
    return s ? `${s.url}${u.pathname.replace(/\/$/, '')}` : undefined;
  }

  /** The check whose requests come next (undefined: none, the run's housekeeping). */
  setCheck(checkId: string | undefined): void {
    this.current = checkId;
    if (checkId && !this.state.has(checkId)) this.state.set(checkId, { unmatched: [], unused: 0, takenBy: [], mapped: 0, entries: [] });
  }

  /** What the playback did for `checkId`. */
  resultOf(checkId: string): CheckPlayback {
    const s = this.state.get(checkId);
    const unused = this.recorded.filter((r) => r.e._check === checkId && !r.used).length;
    const takenBy = this.recorded.filter((r) => r.e._check === checkId && r.by && r.by !== checkId).map((r) => `#${r.n} by ${r.by}`);
    return { unmatched: [...(s?.unmatched ?? [])], unused, takenBy, mapped: s?.mapped ?? 0, entries: [...(s?.entries ?? [])] };
  }

  async close(): Promise<void> {
    const all = [...this.servers.values()];
    this.servers.clear();
    for (const { server } of all) {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  }

  private answer(origin: string, req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_REQUEST_BYTES) chunks.push(c);
    });
    req.on('end', () => this.respond(origin, req, Buffer.concat(chunks).toString('utf8'), res));
    req.on('error', () => res.destroy());
  }

  private respond(origin: string, req: IncomingMessage, body: string, res: ServerResponse): void {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://playback');
    const what = `${method} ${url.pathname}${url.search}`;
    const checkId = this.current;
    const s = checkId ? this.state.get(checkId) : undefined;
    if (!s || !checkId) {
      this.outside.push(`${what}: sent outside any check; the transcript records only the checks' exchanges`);
      res.statusCode = 404;
      res.setHeader('content-type', 'application/json');
      res.end('{"playback":"no recorded exchange outside a check"}');
      return;
    }
    const hit = this.pick(origin, checkId, method, url, req, body, this.map);
    if (!hit) {
      s.unmatched.push(`${what}: no recorded exchange of ${checkId} (nor an identical request of another check) answers it`);
      res.destroy();
      return;
    }
    s.entries.push(hit.n);
    this.learn(hit, url, req, body, s);
    const rec = hit.e.response;
    if (!rec.status) {
      // The recording has no answer (a transport failure): the check gets none either.
      res.destroy();
      return;
    }
    res.statusCode = rec.status;
    for (const { name, value } of rec.headers) if (!NOT_SENT.has(name.toLowerCase())) res.setHeader(name, this.mapped(value, this.map, false));
    res.end(this.mapped(rec.content.text ?? '', this.map, jsonOf(rec.content.text) !== undefined));
  }

  /**
   * The recorded exchange answering this request. The check's own unused exchanges of the same route
   * first, the one with the same body (then the same identity headers) before the first in order.
   * Then any identical request (a token minted again). Last, another check's unused exchange of the
   * same route whose answer other checks used (shared): a value the run makes once and shares (its
   * token cache, a shared user) is recorded in whichever check asked first, which depends on how many
   * checks ran at once.
   */
  private pick(origin: string, checkId: string, method: string, url: URL, req: IncomingMessage, body: string, map: Map<string, string>): Recorded | undefined {
    const now = jsonOf(body);
    const score = (r: Recorded) => {
      const text = r.e.request.postData?.text ?? '';
      // The same resource first (its id in the path, up to mapped values), then the credentials and
      // user headers (one route asked as two users), then the body.
      return (samePath(r.url, url, map) ? 2000 : 0) + (this.sameIdentity(r, req, map) ? 1000 : 0) + (text === body ? 500 : similarity(jsonOf(text), now, map));
    };
    const best = (list: Recorded[]) => list.reduce<Recorded | undefined>((a, r) => (!a || score(r) > score(a) ? r : a), undefined);
    const route = this.recorded.filter((r) => r.origin === origin && !r.used && routeMatches(r, method, url, map));
    const own = best(route.filter((r) => r.e._check === checkId));
    if (own) return this.take(own, checkId);
    const same = this.recorded.find((r) => r.origin === origin && r.e.request.method.toUpperCase() === method && r.url.pathname === url.pathname && r.url.search === url.search && (r.e.request.postData?.text ?? '') === body && r.e.response.status > 0);
    if (same) return same;
    const shared = best(route.filter((r) => this.shared.has(r.n)));
    return shared ? this.take(shared, checkId) : undefined;
  }

  private take(r: Recorded, checkId: string): Recorded {
    r.used = true;
    r.by = checkId;
    return r;
  }

  /** Whether the request carries the recorded credentials and identity headers (X-User-*, up to mapped values). */
  private sameIdentity(r: Recorded, req: IncomingMessage, map: Map<string, string>): boolean {
    return r.e.request.headers.every(({ name, value }) => {
      const k = name.toLowerCase();
      if (!k.startsWith('x-user-') && k !== 'authorization') return true;
      const now = req.headers[k];
      return now === value || map.get(value) === now || (typeof now === 'string' && credentialOf(now) === credentialOf(value));
    }) && Object.keys(req.headers).filter((k) => k.startsWith('x-user-') || k === 'authorization').every((k) => r.e.request.headers.some((h) => h.name.toLowerCase() === k));
  }

  /** Learns where the request differs from the recorded one (see the header comment). */
  private learn(hit: Recorded, url: URL, req: IncomingMessage, body: string, s: CheckPlayback): void {
    const pairs: [string, string][] = [];
    const [a, b] = [hit.url.pathname.split('/'), url.pathname.split('/')];
    a.forEach((seg, i) => pairs.push([decodeURIComponent(seg), decodeURIComponent(b[i] ?? seg)]));
    for (const [k, v] of hit.url.searchParams) {
      const now = url.searchParams.get(k);
      if (now !== null) pairs.push([v, now]);
    }
    for (const { name, value } of hit.e.request.headers) {
      const k = name.toLowerCase();
      const now = req.headers[k];
      if (NOT_COMPARED.has(k) || typeof now !== 'string') continue;
      pairs.push([value, now]);
      // A credential after its scheme word: map the credential alone too.
      const [rs, rv] = value.split(/\s+/, 2);
      const [ns, nv] = now.split(/\s+/, 2);
      if (rv && nv && rs === ns) pairs.push([rv, nv]);
    }
    differing(jsonOf(hit.e.request.postData?.text), jsonOf(body), pairs);
    for (const [rec, now] of pairs) {
      if (rec === now || rec.length < MIN_MAPPED || this.map.get(rec) === now || shapeOf(rec) !== shapeOf(now)) continue;
      if (!this.map.has(rec)) s.mapped++;
      this.map.set(rec, now);
    }
  }

  /**
   * `text` with each recorded value replaced by the new one: in a JSON answer, whole string values only
   * (and the claims of a JWT among them: a user token names the user the check registered), written
   * back only when one changed; elsewhere (a header) the whole value.
   */
  private mapped(text: string, map: Map<string, string>, json: boolean): string {
    if (!map.size || !text) return text;
    if (!json) return map.get(text) ?? text;
    let changed = false;
    const walk = (v: unknown, depth: number): unknown => {
      if (depth > 32) return v;
      if (typeof v === 'string') {
        const now = map.get(v) ?? this.mappedJwt(v, map);
        if (now !== v) changed = true;
        return now;
      }
      if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
      if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, depth + 1)]));
      return v;
    };
    const out = walk(jsonOf(text), 0);
    return changed ? JSON.stringify(out) : text;
  }

  /** A JWT whose claims hold recorded values, with those claims mapped (its signature slot as it was). */
  private mappedJwt(v: string, map: Map<string, string>): string {
    if (!JWT_WHOLE.test(v)) return v;
    const [h, p, sig] = v.split('.');
    const claims = jsonOf(Buffer.from(p, 'base64url').toString('utf8'));
    if (!claims || typeof claims !== 'object') return v;
    let changed = false;
    const now = Object.fromEntries(Object.entries(claims).map(([k, x]) => {
      const m = typeof x === 'string' ? map.get(x) : undefined;
      if (m !== undefined) changed = true;
      return [k, m ?? x];
    }));
    return changed ? `${h}.${Buffer.from(JSON.stringify(now)).toString('base64url')}.${sig}` : v;
  }
}
