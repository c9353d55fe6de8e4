// Partner clients on real HTTP libraries, configured as each library's documentation shows, each with
// the verdict the audit is expected to reach per client rule and the library default that decides it.
// The bank runs them (index.ts) and its test holds every outcome and the table of
// docs/certify-your-client.md (libraryTable) to these expectations.

import type { ClientRuleId } from '../../model/index.ts';
import type { AuditProfile, RuleOutcome } from '../index.ts';
import type { TokenPolicy, Transport } from './app.ts';
import {
  axiosRetryTransport, fetchTransport, gotTransport, kySpecTransport, kyTransport, openapiFetchTransport, pRetryTransport, retryAgentDefaults, undiciTransport,
} from './transports.ts';
import { Agent, RetryAgent } from 'undici';

export type Expected = Exclude<RuleOutcome['outcome'], 'untestable'>;

export interface LibraryClient {
  id: string;
  /** The library and how it is configured, in the words of its docs. */
  library: string;
  configuration: string;
  policy: TokenPolicy;
  /** One of the five most common default configurations (issue 33): each must fail the audit or end it inconclusive. */
  commonDefault?: true;
  /** The packages it imports when it runs (devDependencies: an installed CLI reports the client as not available). */
  packages: readonly string[];
  transport(profile: AuditProfile): Transport | Promise<Transport>;
  /** The audit's outcome per testable client rule, and what decides it. */
  expected: Record<Exclude<ClientRuleId, 'CLIENT-TRANSPORT-TLS'>, [Expected, string]>;
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
const CACHE: [Expected, string] = ['pass', 'the application caches the token'];
/** A library that does not retry POST: the application's next step is the token request after a 429. */
const NEXT_STEP = 'the application asks again on its next step, 150 ms after each 429';
const ASKS_EARLY = 'the application asks again before Retry-After elapses';

export const LIBRARY_CLIENTS: readonly LibraryClient[] = [
  {
    id: 'undici-retry-agent',
    library: 'undici 7 RetryAgent',
    configuration: '`new RetryAgent(new Agent())`, the defaults',
    policy: 'on-401',
    commonDefault: true,
    packages: [],
    transport: retryAgentDefaults,
    expected: {
      'CLIENT-TOKEN-BACKOFF': ['fail', `POST is not in RetryAgent's default \`methods\`: the token call's 429 goes back to the application; ${NEXT_STEP}`],
      'CLIENT-RETRY-AFTER': ['warn', `POST is not retried, so RetryAgent never reads the Retry-After of a token call: ${ASKS_EARLY}`],
      'CLIENT-TOKEN-CACHE': CACHE,
      'CLIENT-TOKEN-REFRESH-BUFFER': ['warn', ON_401],
      'CLIENT-REQUEST-TIMEOUT': ['warn', "undici's default headersTimeout is 300 s: the client waits out the stall"],
      ...FLOW,
    },
  },
  {
    id: 'fetch',
    library: "Node's fetch",
    configuration: '`fetch(url, { method, headers, body })`, no options',
    policy: 'on-401',
    packages: [],
    transport: fetchTransport,
    expected: {
      'CLIENT-TOKEN-BACKOFF': ['fail', `fetch never retries: ${NEXT_STEP}`],
      'CLIENT-RETRY-AFTER': ['warn', 'fetch never retries, and the application does not read Retry-After'],
      'CLIENT-TOKEN-CACHE': CACHE,
      'CLIENT-TOKEN-REFRESH-BUFFER': ['warn', ON_401],
      'CLIENT-REQUEST-TIMEOUT': ['warn', "fetch has no timeout unless given a signal (undici's headersTimeout, 300 s, underneath)"],
      ...FLOW,
    },
  },
  {
    id: 'got',
    library: 'got 14',
    configuration: '`got(url, { method, headers, json })`, default retry and timeout',
    policy: 'on-401',
    commonDefault: true,
    packages: ['got'],
    transport: gotTransport,
    expected: {
      'CLIENT-TOKEN-BACKOFF': ['fail', `got's default \`retry.methods\` are GET, PUT, HEAD, DELETE, OPTIONS, TRACE: a POST's 429 throws an HTTPError at once; ${NEXT_STEP}`],
      'CLIENT-RETRY-AFTER': ['warn', `got honours Retry-After only on the methods it retries, and POST is not one: ${ASKS_EARLY}`],
      'CLIENT-TOKEN-CACHE': CACHE,
      'CLIENT-TOKEN-REFRESH-BUFFER': ['warn', ON_401],
      'CLIENT-REQUEST-TIMEOUT': ['warn', "got has no timeout by default (every `timeout` field undefined): the client waits out the stall"],
      ...FLOW,
    },
  },
  {
    id: 'ky',
    library: 'ky 1',
    configuration: '`ky(url, { method, headers, json })`, the defaults',
    policy: 'on-401',
    commonDefault: true,
    packages: ['ky'],
    transport: () => kyTransport(),
    expected: {
      'CLIENT-TOKEN-BACKOFF': ['fail', `ky's default \`retry.methods\` are get, put, head, delete, options, trace: a POST's 429 throws an HTTPError at once; ${NEXT_STEP}`],
      'CLIENT-RETRY-AFTER': ['warn', `ky honours Retry-After only on the methods it retries, and POST is not one: ${ASKS_EARLY}`],
      'CLIENT-TOKEN-CACHE': CACHE,
      'CLIENT-TOKEN-REFRESH-BUFFER': ['warn', ON_401],
      'CLIENT-REQUEST-TIMEOUT': ['warn', "ky's default timeout is 10 s (`options.timeout ?? 10_000`), longer than the stall: the client waits it out"],
      ...FLOW,
    },
  },
  {
    id: 'axios-retry',
    library: 'axios 1 with axios-retry 4',
    configuration: '`axiosRetry(axios.create(), { retries: 3 })`, as the axios-retry readme starts',
    policy: 'on-401',
    commonDefault: true,
    packages: ['axios', 'axios-retry'],
    transport: axiosRetryTransport,
    expected: {
      'CLIENT-TOKEN-BACKOFF': ['fail', `axios-retry's default retryCondition, isNetworkOrIdempotentRequestError, retries a 429 on get, head, options, put and delete only: a POST's 429 rejects at once; ${NEXT_STEP}`],
      'CLIENT-RETRY-AFTER': ['warn', `POST is not retried, so axios-retry's default retryDelay (the Retry-After, else none) never applies to it: ${ASKS_EARLY}`],
      'CLIENT-TOKEN-CACHE': CACHE,
      'CLIENT-TOKEN-REFRESH-BUFFER': ['warn', ON_401],
      'CLIENT-REQUEST-TIMEOUT': ['warn', "axios's default timeout is 0 (none): the client waits out the stall"],
      ...FLOW,
    },
  },
  {
    id: 'openapi-fetch',
    library: 'openapi-fetch 0.15',
    configuration: '`createClient({ baseUrl })` (one for base_url, one for pci_url), `client.request(method, path, { headers, body })`',
    policy: 'on-401',
    commonDefault: true,
    packages: ['openapi-fetch'],
    transport: openapiFetchTransport,
    expected: {
      'CLIENT-TOKEN-BACKOFF': ['fail', `openapi-fetch never retries (one call of globalThis.fetch per request; an error status is returned as \`error\`): ${NEXT_STEP}`],
      'CLIENT-RETRY-AFTER': ['warn', `openapi-fetch never retries, and the application does not read Retry-After: ${ASKS_EARLY}`],
      'CLIENT-TOKEN-CACHE': CACHE,
      'CLIENT-TOKEN-REFRESH-BUFFER': ['warn', ON_401],
      'CLIENT-REQUEST-TIMEOUT': ['warn', 'openapi-fetch sets no timeout and fetch has none unless given a signal: the client waits out the stall'],
      ...FLOW,
    },
  },
  {
    id: 'p-retry',
    library: 'p-retry 7 with fetch',
    configuration: "the token request in `pRetry(run, { retries: 5 })` as its readme shows, `run` throwing on a 429 or 5xx; other calls fetch alone",
    policy: 'on-401',
    packages: ['p-retry'],
    transport: pRetryTransport,
    expected: {
      'CLIENT-TOKEN-BACKOFF': ['pass', "p-retry's defaults minTimeout 1000 and factor 2 wait 1, 2, 4, 8, 16 s: the waits grow"],
      'CLIENT-RETRY-AFTER': ['warn', "p-retry never reads Retry-After: its second wait, 2 s, comes before the token call's Retry-After of 3 s (and the application asks again after another call's 429 on its next step)"],
      'CLIENT-TOKEN-CACHE': CACHE,
      'CLIENT-TOKEN-REFRESH-BUFFER': ['warn', ON_401],
      'CLIENT-REQUEST-TIMEOUT': ['warn', 'fetch has no timeout unless given a signal: the client waits out the stall'],
      ...FLOW,
    },
  },
  {
    id: 'undici-retry-agent-spec',
    library: 'undici 7 RetryAgent',
    configuration: "`new RetryAgent(new Agent({ headersTimeout, bodyTimeout }), { methods: [...defaults, 'POST'], statusCodes: [429], minTimeout: 100, timeoutFactor: 1.5, maxRetries: 8 })`, timeouts from the profile",
    policy: 'buffer',
    packages: [],
    transport: (p) => {
      const timeout = p.request_timeout_seconds * 1000;
      return undiciTransport(new RetryAgent(new Agent({ headersTimeout: timeout, bodyTimeout: timeout }), {
        methods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE', 'POST'], statusCodes: [429], minTimeout: 100, timeoutFactor: 1.5, maxRetries: 8,
      }));
    },
    expected: {
      'CLIENT-TOKEN-BACKOFF': ['pass', 'RetryAgent waits minTimeout x timeoutFactor^n: 100, 150, 225, 338, 506 ms ... (no jitter)'],
      'CLIENT-RETRY-AFTER': ['pass', "RetryAgent's retryAfter: true honours the header up to maxTimeout (default 30 s)"],
      'CLIENT-TOKEN-CACHE': CACHE,
      'CLIENT-TOKEN-REFRESH-BUFFER': ['pass', "the application renews the profile's buffer before expires_at"],
      'CLIENT-REQUEST-TIMEOUT': ['pass', "headersTimeout is the profile's timeout"],
      ...FLOW,
    },
  },
  {
    id: 'ky-spec',
    library: 'ky 1',
    configuration: "`ky.create({ timeout, retry: { limit: 8, methods: [...defaults, 'post'], statusCodes: [429], backoffLimit: 2000 } })`, the timeout from the profile",
    policy: 'buffer',
    packages: ['ky'],
    transport: kySpecTransport,
    expected: {
      'CLIENT-TOKEN-BACKOFF': ['pass', "ky's default retry.delay, 0.3 s x 2^(n-1), capped by backoffLimit: 0.3, 0.6, 1.2, 2, 2 ... s"],
      'CLIENT-RETRY-AFTER': ['pass', "ky honours Retry-After on 429 (default afterStatusCodes 413, 429, 503; maxRetryAfter unbounded)"],
      'CLIENT-TOKEN-CACHE': CACHE,
      'CLIENT-TOKEN-REFRESH-BUFFER': ['pass', "the application renews the profile's buffer before expires_at"],
      'CLIENT-REQUEST-TIMEOUT': ['pass', "ky's timeout is the profile's: it aborts the stalled call (a TimeoutError, not retried) and the application goes on"],
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
  const legend = clients.map((c) => `- \`${c.id}\`: ${c.library}, ${c.configuration}; token renewed ${c.policy === 'buffer' ? 'the buffer before expiry' : 'on a 401'}${c.packages.length ? ` (needs ${c.packages.join(', ')}: devDependencies)` : ''}.`);
  return [...legend, '', head, sep, ...rows].join('\n');
}
