// Partner clients on real HTTP libraries, configured as each library's documentation shows, each with
// the verdict the audit is expected to reach per client rule and the library default that decides it.
// The bank runs them (index.ts) and its test holds every outcome and the table of
// docs/certify-your-client.md (libraryTable) to these expectations.

import { Agent, RetryAgent, request, type Dispatcher } from 'undici';
import type { ClientRuleId } from '../../model/index.ts';
import type { AuditProfile, RuleOutcome } from '../index.ts';
import type { Reply, TokenPolicy, Transport } from './app.ts';

export type Expected = Exclude<RuleOutcome['outcome'], 'untestable'>;

export interface LibraryClient {
  id: string;
  /** The library and how it is configured, in the words of its docs. */
  library: string;
  configuration: string;
  policy: TokenPolicy;
  transport(profile: AuditProfile): Transport;
  /** The audit's outcome per testable client rule, and what decides it. */
  expected: Record<Exclude<ClientRuleId, 'CLIENT-TRANSPORT-TLS'>, [Expected, string]>;
}

const parse = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
};

/** undici's request() through `dispatcher`; an error a dispatcher throws (a retry given up) is the application's to handle. */
function undiciTransport(dispatcher: Dispatcher): Transport {
  return {
    async send(req) {
      const res = await request(req.url, {
        method: req.method as 'GET',
        headers: { ...req.headers, ...(req.body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        dispatcher,
      });
      return { status: res.statusCode, body: parse(await res.body.text()) } satisfies Reply;
    },
    close: () => dispatcher.close(),
  };
}

/** Node's global fetch with no options: what openapi-fetch's createClient({ baseUrl }) calls by default. */
function fetchTransport(): Transport {
  return {
    async send(req) {
      const res = await fetch(req.url, {
        method: req.method,
        headers: { ...req.headers, ...(req.body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(req.body === undefined ? {} : { body: JSON.stringify(req.body) }),
      });
      return { status: res.status, body: parse(await res.text()) };
    },
    close: async () => {},
  };
}

/** The rules whose outcome is the application's flow, not its library: the same for every client here. */
const FLOW = {
  'CLIENT-CHAIN-HEADER': ['pass', 'the application sends X-Chain-Id as the API reference shows'],
  'CLIENT-ONE-IDENTITY-HEADER': ['pass', 'the application sends the EOA alone on S2S user calls'],
  'CLIENT-WALLET-HEADER-EOA': ['pass', 'the application sends the EOA it registered'],
  'CLIENT-PREFERRED-NAMES': ['pass', 'the application sends the preferred names'],
  'CLIENT-ALIAS-PAIR-MATCH': ['not-exercised', 'the application never sends both names of a pair'],
  'CLIENT-PAN-PCI-ONLY': ['pass', 'the application sends the card to pci_url only'],
  'CLIENT-CHAIN-STRING': ['not-exercised', 'the application never links a wallet to a SEPA account'],
  'CLIENT-WEBHOOK-ACCEPT': ['pass', 'the receiver accepts repeats and unknown fields'],
} as const satisfies Partial<Record<ClientRuleId, [Expected, string]>>;

const ON_401 = 'no library renews a token: the application keeps it until a 401 (expired row), then asks again';

export const LIBRARY_CLIENTS: readonly LibraryClient[] = [
  {
    id: 'undici-retry-agent',
    library: 'undici 7 RetryAgent',
    configuration: '`new RetryAgent(new Agent())`, the defaults',
    policy: 'on-401',
    transport: () => undiciTransport(new RetryAgent(new Agent())),
    expected: {
      'CLIENT-TOKEN-BACKOFF': ['fail', "POST is not in RetryAgent's default `methods`: the token call's 429 goes back to the application, whose next step asks again 150 ms later, every time"],
      'CLIENT-RETRY-AFTER': ['warn', 'POST is not retried, so RetryAgent never reads the Retry-After of a token call: the application asks again before it elapses'],
      'CLIENT-TOKEN-CACHE': ['pass', 'the application caches the token'],
      'CLIENT-TOKEN-REFRESH-BUFFER': ['warn', ON_401],
      'CLIENT-REQUEST-TIMEOUT': ['warn', "undici's default headersTimeout is 300 s: the client waits out the stall"],
      ...FLOW,
    },
  },
  {
    id: 'fetch',
    library: "Node's fetch (openapi-fetch's default transport)",
    configuration: '`fetch(url, { method, headers, body })`, no options',
    policy: 'on-401',
    transport: fetchTransport,
    expected: {
      'CLIENT-TOKEN-BACKOFF': ['fail', 'fetch never retries: the application asks for a token again on its next step, 150 ms after each 429'],
      'CLIENT-RETRY-AFTER': ['warn', 'fetch never retries, and the application does not read Retry-After'],
      'CLIENT-TOKEN-CACHE': ['pass', 'the application caches the token'],
      'CLIENT-TOKEN-REFRESH-BUFFER': ['warn', ON_401],
      'CLIENT-REQUEST-TIMEOUT': ['warn', "fetch has no timeout unless given a signal (undici's headersTimeout, 300 s, underneath)"],
      ...FLOW,
    },
  },
  {
    id: 'undici-retry-agent-spec',
    library: 'undici 7 RetryAgent',
    configuration: "`new RetryAgent(new Agent({ headersTimeout, bodyTimeout }), { methods: [...defaults, 'POST'], statusCodes: [429], minTimeout: 100, timeoutFactor: 1.5, maxRetries: 8 })`, timeouts from the profile",
    policy: 'buffer',
    transport: (p) => {
      const timeout = p.request_timeout_seconds * 1000;
      return undiciTransport(new RetryAgent(new Agent({ headersTimeout: timeout, bodyTimeout: timeout }), {
        methods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE', 'POST'], statusCodes: [429], minTimeout: 100, timeoutFactor: 1.5, maxRetries: 8,
      }));
    },
    expected: {
      'CLIENT-TOKEN-BACKOFF': ['pass', 'RetryAgent waits minTimeout x timeoutFactor^n: 100, 150, 225, 338, 506 ms ... (no jitter)'],
      'CLIENT-RETRY-AFTER': ['pass', "RetryAgent's retryAfter: true honours the header up to maxTimeout (default 30 s)"],
      'CLIENT-TOKEN-CACHE': ['pass', 'the application caches the token'],
      'CLIENT-TOKEN-REFRESH-BUFFER': ['pass', "the application renews the profile's buffer before expires_at"],
      'CLIENT-REQUEST-TIMEOUT': ['pass', "headersTimeout is the profile's timeout"],
      ...FLOW,
    },
  },
];

/** The clients' expected verdicts as the markdown table of docs/certify-your-client.md. */
export function libraryTable(clients: readonly LibraryClient[] = LIBRARY_CLIENTS): string {
  const rules = Object.keys(clients[0].expected) as (keyof LibraryClient['expected'])[];
  const head = `| Rule | ${clients.map((c) => `\`${c.id}\``).join(' | ')} |`;
  const sep = `| --- | ${clients.map(() => '---').join(' | ')} |`;
  const rows = rules.map((r) => `| ${r} | ${clients.map((c) => `**${c.expected[r][0]}**: ${c.expected[r][1]}`).join(' | ')} |`);
  const legend = clients.map((c) => `- \`${c.id}\`: ${c.library}, ${c.configuration}; token renewed ${c.policy === 'buffer' ? 'the buffer before expiry' : 'on a 401'}.`);
  return [...legend, '', head, sep, ...rows].join('\n');
}
