// The HTTP libraries of the bank's library clients (libraries.ts), each behind the application's
// Transport as an integrator wires it: the library throws on an error status (got, ky, axios) or
// answers it (undici, fetch, openapi-fetch); either way the application sees the status and decides.
// got, ky, axios, axios-retry, p-retry and openapi-fetch are devDependencies: each is imported when
// its client runs, so the compiled bank loads without them (an installed CLI reports those clients
// as not available, see `missingPackages`).

import { Agent, RetryAgent, request, type Dispatcher } from 'undici';
import type { AuditProfile } from '../index.ts';
import { loadModel } from '../../model/index.ts';
import type { Reply, Transport } from './app.ts';

type Req = Parameters<Transport['send']>[0];

const parse = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
};

const jsonHeaders = (req: Req): Record<string, string> => ({ ...req.headers, ...(req.body === undefined ? {} : { 'content-type': 'application/json' }) });

/** The packages of `names` that cannot be imported here (an installed CLI has no devDependencies). */
export async function missingPackages(names: readonly string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const name of names) {
    try {
      await import(name);
    } catch {
      missing.push(name);
    }
  }
  return missing;
}

/** undici's request() through `dispatcher`; an error a dispatcher throws (a retry given up) is the application's to handle. */
export function undiciTransport(dispatcher: Dispatcher): Transport {
  return {
    async send(req) {
      const res = await request(req.url, {
        method: req.method as 'GET', headers: jsonHeaders(req), body: req.body === undefined ? undefined : JSON.stringify(req.body), dispatcher,
      });
      return { status: res.statusCode, body: parse(await res.body.text()) } satisfies Reply;
    },
    close: () => dispatcher.close(),
  };
}

export const retryAgentDefaults = (): Transport => undiciTransport(new RetryAgent(new Agent()));

/** Node's global fetch with no options. */
export function fetchTransport(): Transport {
  return {
    async send(req) {
      const res = await fetch(req.url, { method: req.method, headers: jsonHeaders(req), ...(req.body === undefined ? {} : { body: JSON.stringify(req.body) }) });
      return { status: res.status, body: parse(await res.text()) };
    },
    close: async () => {},
  };
}

/** got's default instance: `got(url, { method, headers, json })`, default retry and timeout. */
export async function gotTransport(): Promise<Transport> {
  const { got, HTTPError } = await import('got');
  return {
    async send(req) {
      try {
        const res = await got(req.url, { method: req.method as 'GET', headers: req.headers, ...(req.body === undefined ? {} : { json: req.body }) });
        return { status: res.statusCode, body: parse(res.body) };
      } catch (e) {
        // throwHttpErrors (default true): an error status arrives as an HTTPError once retries are done.
        if (e instanceof HTTPError) return { status: e.response.statusCode, body: parse(String(e.response.body ?? '')) };
        throw e;
      }
    },
    close: async () => {},
  };
}

/** `ky(url, { method, headers, json })`: ky's defaults, or `options` passed to ky.create(). */
export async function kyTransport(options: Record<string, unknown> = {}): Promise<Transport> {
  const { default: ky, HTTPError } = await import('ky');
  const client = ky.create(options);
  return {
    async send(req) {
      try {
        const res = await client(req.url, { method: req.method, headers: req.headers, ...(req.body === undefined ? {} : { json: req.body }) });
        return { status: res.status, body: parse(await res.text()) };
      } catch (e) {
        if (e instanceof HTTPError) return { status: e.response.status, body: parse(await e.response.text().catch(() => '')) };
        throw e;
      }
    },
    close: async () => {},
  };
}

/** ky configured by the spec: the profile's timeout, POST retried on 429 with capped exponential backoff. */
export const kySpecTransport = (p: AuditProfile) => kyTransport({
  timeout: p.request_timeout_seconds * 1000,
  retry: { limit: 8, methods: ['get', 'put', 'head', 'delete', 'options', 'trace', 'post'], statusCodes: [429], backoffLimit: 2000 },
});

/** An axios instance with axios-retry as its readme starts: `axiosRetry(axios, { retries: 3 })`. */
export async function axiosRetryTransport(): Promise<Transport> {
  const [{ default: axios, isAxiosError }, { default: axiosRetry }] = await Promise.all([import('axios'), import('axios-retry')]);
  // A fresh instance: the readme's global axios would take one more interceptor per run in one process.
  const client = axios.create();
  axiosRetry(client, { retries: 3 });
  return {
    async send(req) {
      try {
        const res = await client.request({ method: req.method, url: req.url, headers: req.headers, data: req.body, responseType: 'text', transformResponse: [(d: unknown) => d] });
        return { status: res.status, body: parse(String(res.data ?? '')) };
      } catch (e) {
        if (isAxiosError(e) && e.response) return { status: e.response.status, body: parse(String(e.response.data ?? '')) };
        throw e;
      }
    },
    close: async () => {},
  };
}

/**
 * p-retry around the token request, as its readme shows (`pRetry(run, { retries: 5 })`; `run` throws
 * to be retried, an AbortError for what retrying cannot change): `run` throws on a 429 or a 5xx. The
 * other calls go through fetch alone, as an application that retries the call the spec tells it to.
 */
export async function pRetryTransport(p: AuditProfile): Promise<Transport> {
  const [{ default: pRetry }, model] = await Promise.all([import('p-retry'), loadModel()]);
  const tokenUrl = `${p.base_url}${model.operation('createToken').path}`;
  const plain = fetchTransport();
  return {
    async send(req) {
      if (req.url !== tokenUrl) return plain.send(req);
      let last = undefined as Reply | undefined;
      try {
        return await pRetry(async () => {
          last = await plain.send(req);
          if (last.status === 429 || last.status >= 500) throw new Error(`HTTP ${last.status}`);
          return last;
        }, { retries: 5 });
      } catch (e) {
        // Retries given up: the application reads the last answer.
        if (last) return last;
        throw e;
      }
    },
    close: () => plain.close(),
  };
}

interface OpenapiFetchClient {
  request(method: string, url: string, init: { headers: Record<string, string>; body?: unknown }): Promise<{ data?: unknown; error?: unknown; response: Response }>;
}

/** openapi-fetch: `createClient({ baseUrl })` for base_url and another for pci_url, global fetch underneath. */
export async function openapiFetchTransport(p: AuditProfile): Promise<Transport> {
  const { default: createClient } = await import('openapi-fetch');
  // The longer URL first: pci_url may sit under base_url.
  const clients = [p.base_url, p.pci_url].sort((a, b) => b.length - a.length).map((baseUrl) => ({ baseUrl, client: createClient({ baseUrl }) as unknown as OpenapiFetchClient }));
  return {
    async send(req) {
      const at = clients.find((c) => req.url.startsWith(c.baseUrl));
      if (!at) throw new Error(`not a URL of the profile: ${req.url}`);
      const r = await at.client.request(req.method.toLowerCase(), req.url.slice(at.baseUrl.length), { headers: req.headers, ...(req.body === undefined ? {} : { body: req.body }) });
      return { status: r.response.status, body: r.response.ok ? r.data : r.error };
    },
    close: async () => {},
  };
}
