// Benign variants: each changes only what the spec leaves free; no check may fail on them.

import { randomUUID } from 'node:crypto';
import type { OutgoingResponse, TransformRequest } from '../../reference/index.ts';
import { ulidProxy } from '../ulid.ts';
import { CLOSED_ANSWER_OPS, CREATE_OPS, isIn } from '../ops.ts';
import { JSON_TYPE, is2xx, isObject, rewrite, rewriteObject, onOkAny, walk, reverseKeys, reverseArrays, errorBody, parse, withCategories } from '../transforms.ts';
import { benign, faults, waiting, type VariantSpec } from '../variant.ts';

/** Operations with a path id (the card actions and reads, an activity, a recipient); 3DS decisions answer 400 anyway (other rule 1). */
const PATH_ID_OPS = ['activateCard', 'blockCard', 'unblockCard', 'closeCard', 'getCardPan', 'getCardCvv', 'getActivity', 'getRecipient', 'deleteRecipient'] as const;

/** Builds the benign variants (stateful transforms get fresh state on every call). */
export function benignVariants(): VariantSpec[] {
  return [
    // Not the success answers the spec closes ("carries only", "returns only": CLOSED_ANSWER_OPS).
    benign('benign.extra-fields', 'every JSON object in every response (errors included) carries extra unknown fields, except the answers the spec says carry only their fields', {
      transform: rewrite((req, res) => !(is2xx(res.status) && isIn(CLOSED_ANSWER_OPS, req.operationId)), (b) => {
        walk(b, (o) => {
          o.x_mutant_extra = 'unknown field';
        });
        if (isObject(b)) b.x_mutant_meta = { request_id: randomUUID(), flags: [1, 2] };
      }),
    }),
    // Reading row-order-open (spec/rules/errors.yaml): section 7 does not order a credentials row before
    // the refusal of another input, so a route may resolve its path id first (its not-found: 400). The row sweeps
    // (suites/kit/rows.ts sweepRow) must take the other refusal.
    benign('benign.auth.path-id-refused-first', 'card, activity and recipient routes with a path id answer a faulty S2S or user token, or a missing X-Chain-Id or identity header, with 400 ErrorNotFound (the route resolves its id before it checks the credentials)', {
      transform: (req, res) => {
        if (!isIn(PATH_ID_OPS, req.operationId) || !res.ruleId || !/^ERR-(S2S|USER-TOKEN)-/.test(res.ruleId) || res.ruleId === 'ERR-S2S-USER-NOT-FOUND') return;
        // 400 ErrorNotFound, the shape section 7 gives a not-found (section 7 names no category for 404).
        res.status = 400;
        res.headers = { 'content-type': JSON_TYPE };
        res.body = JSON.stringify(withCategories(req.categoryFor, () => errorBody(400, 'ErrorNotFound', 'resource not found')));
        delete res.ruleId;
      },
    }),
    benign('benign.key-order', 'object keys in every JSON response come in reverse order', {
      transform: rewrite(() => true, (b) => reverseKeys(b)),
    }),
    benign('benign.extra-headers', 'responses carry extra headers (request id, cache, security, rate-limit info)', {
      transform: (_req, res) => {
        Object.assign(res.headers, {
          'x-request-id': randomUUID(),
          'x-powered-by': 'mutant-bank',
          'cache-control': 'no-store',
          'strict-transport-security': 'max-age=63072000',
          'x-ratelimit-remaining': '99',
          vary: 'Accept-Encoding',
        });
      },
    }),
    benign('benign.chunked', 'responses use chunked transfer encoding (no content-length)', {}, { chunked: true }),
    benign('benign.content-type-no-charset', 'JSON responses are typed application/json without charset', {
      transform: (_req, res) => {
        if (res.headers['content-type']) res.headers['content-type'] = 'application/json';
      },
    }),
    benign('benign.content-type-upper', 'JSON responses are typed application/json;charset=UTF-8 (no space, upper case)', {
      transform: (_req, res) => {
        if (res.headers['content-type']) res.headers['content-type'] = 'application/json;charset=UTF-8';
      },
    }),
    benign('benign.pretty-json', 'JSON bodies are pretty-printed with a trailing newline', {
      transform: (_req, res) => {
        const b = parse(res.body);
        if (b !== undefined) res.body = `${JSON.stringify(b, null, 2)}\n`;
      },
    }),
    benign('benign.extra-error-details', 'error bodies carry extra error_details entries', {
      transform: rewriteObject((_req, res) => res.status >= 400, (b) => {
        b.error_details = [...(Array.isArray(b.error_details) ? b.error_details : []), { key: 'trace_id', details: randomUUID() }, { key: 'hint', details: 'see the documentation' }];
      }),
    }),
    waiting(benign('benign.latency-50ms', 'every response is delayed by 50 ms (well within the timeout budget)', { latencyMs: 50 })),
    benign('benign.token-429-every-7th', 'every 7th token request answers 429 CategoryTransientFailure with Retry-After: 1', {
      transform: (() => {
        const counts = new Map<string, number>();
        return (req: TransformRequest, res: OutgoingResponse) => {
          if (req.operationId !== 'createToken') return;
          const key = String(req.headers.host);
          const n = (counts.get(key) ?? 0) + 1;
          counts.set(key, n);
          if (n % 7 !== 0 || res.status === 429) return;
          return { status: 429, headers: { 'content-type': JSON_TYPE, 'retry-after': '1' }, body: JSON.stringify(withCategories(req.categoryFor, () => errorBody(429, 'ErrorRateLimited', 'Too many requests'))) };
        };
      })(),
    }),
    benign('benign.connection-close', 'every response carries Connection: close', {
      transform: (_req, res) => {
        res.headers.connection = 'close';
      },
    }),
    benign('benign.ulid-ids', 'ids other than user ids (cards, wallets, challenges, recipients, estimations, activities, details) are ULID-like instead of UUIDs', {}, ulidProxy),
    benign('benign.list-order', 'every array in successful responses comes in reverse order', {
      transform: onOkAny((b) => reverseArrays(b)),
    }),
    benign('benign.created-201', 'resource creations answer 201 instead of 200', {
      transform: (req, res) => {
        if (res.status === 200 && isIn(CREATE_OPS, req.operationId)) res.status = 201;
      },
    }),
    benign('benign.429-no-retry-after', '429 answers carry no Retry-After header (the spec does not show one)', faults('ratelimit.no-retry-after')),
    // A fault point that breaks no documented rule: the spec orders no errors of a request with several faults.
    benign('benign.token-error-order', 'the token endpoint checks the client credentials before grant_type (a request with both wrong answers 401)', faults('token.wrong-error-order')),
    { ...benign('benign.tight-rate-limit', 'a lower token-endpoint limit: 150 per IP and 60 per client per 10 s', { rateLimit: { perIp: 150, perClient: 60, windowMs: 10_000 } }), realRateLimit: true },
    // The other runs use the selftest's short rate-limit window; this one shows the unchanged
    // reference with its own (10 s) window stays clean too.
    { ...benign('benign.reference-rate-limit', "the unmodified reference with its own token rate limit (not the selftest's short window)", {}), realRateLimit: true },
  ];
}
