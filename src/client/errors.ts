// Transport failures, each with a stable code. A check that hits one fails with the code as cause;
// the preflight turns the connection codes into TargetUnreachableError.

import { TransportError, type TransportErrorCode } from '../errors/index.ts';

export { TransportError };

export type { TransportErrorCode } from '../errors/transport.ts';

export function isTransportError(err: unknown): err is TransportError {
  return err instanceof TransportError;
}

const CODE_MAP: Record<string, TransportErrorCode> = {
  UND_ERR_HEADERS_TIMEOUT: 'TIMEOUT',
  UND_ERR_BODY_TIMEOUT: 'TIMEOUT',
  UND_ERR_CONNECT_TIMEOUT: 'TIMEOUT',
  ETIMEDOUT: 'TIMEOUT',
  UND_ERR_SOCKET: 'CONNECTION_RESET',
  ECONNRESET: 'CONNECTION_RESET',
  EPIPE: 'CONNECTION_RESET',
  UND_ERR_CLOSED: 'CONNECTION_RESET',
  ECONNREFUSED: 'CONNECTION_REFUSED',
  EHOSTUNREACH: 'CONNECTION_REFUSED',
  ENETUNREACH: 'CONNECTION_REFUSED',
  EADDRNOTAVAIL: 'CONNECTION_REFUSED',
  ENOTFOUND: 'DNS',
  EAI_AGAIN: 'DNS',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'PROTOCOL',
  UND_ERR_INFO: 'PROTOCOL',
  HPE_INVALID_CONSTANT: 'PROTOCOL',
};

function codesOf(err: unknown, depth = 0): string[] {
  if (!err || typeof err !== 'object' || depth > 4) return [];
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown[] };
  const out: string[] = typeof e.code === 'string' ? [e.code] : [];
  if (Array.isArray(e.errors)) for (const inner of e.errors) out.push(...codesOf(inner, depth + 1));
  if (e.cause) out.push(...codesOf(e.cause, depth + 1));
  return out;
}

/** Maps an undici / node error to a TransportError; `timedOut`/`aborted` say which signal fired. */
export function toTransportError(err: unknown, url: string, state: { timedOut: boolean; aborted: boolean; budgetMs: number }): TransportError {
  if (err instanceof TransportError) return err;
  if (state.timedOut) return new TransportError('TIMEOUT', `no complete response from ${url} within ${state.budgetMs} ms`, url);
  if (state.aborted) return new TransportError('ABORTED', `request to ${url} was aborted (check cancelled or out of time)`, url);
  const codes = codesOf(err);
  for (const c of codes) {
    const mapped = CODE_MAP[c] ?? (c.startsWith('ERR_TLS') || c.includes('CERT') || c.startsWith('ERR_SSL') || c.startsWith('UNABLE_TO_') ? 'TLS' : c.startsWith('HPE_') ? 'PROTOCOL' : undefined);
    if (mapped) {
      const detail = mapped === 'TIMEOUT' ? `no response from ${url} within ${state.budgetMs} ms` : `${url}: ${(err as Error).message || c}`;
      return new TransportError(mapped, `${mapped === 'TIMEOUT' ? '' : `${c}: `}${detail}`, url);
    }
  }
  const name = (err as Error)?.name;
  if (name === 'TimeoutError') return new TransportError('TIMEOUT', `no complete response from ${url} within ${state.budgetMs} ms`, url);
  if (name === 'AbortError') return new TransportError('ABORTED', `request to ${url} was aborted`, url);
  return new TransportError('TRANSPORT', `${url}: ${(err as Error)?.message ?? String(err)}`, url);
}
