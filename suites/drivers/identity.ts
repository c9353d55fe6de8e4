// Section 5 user identity headers and the S2S rows of section 7 about them: none, each kind alone,
// several at once (every subset of size >= 2), unknown user, another company's user, the Smart
// Wallet address in X-User-Wallet, and X-Chain-Id.

import fc from 'fast-check';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { Drivers } from './driver.ts';
import { isolationOnWrites } from './isolation-writes.ts';
import { rowFixtureIds, rowStepBodies } from './row-steps.ts';
import type { RuleId } from '../../src/model/types.ts';
import {
  opLabel,
  IDENTITY_KINDS, type IdentityKind, type TestUser, authorizeRaw, check, expect2xx, expectError, expectRefusedBy,
  identityHeader, identityValue, readUser, rnd, s2sHeaders, sharedUser, requireSmartWallets, userHeaders, CheckFailure, expectNot2xx, expectErrorShape, userToken, bearer, sharedIdpUser, idpHeaders, newIdpIdentity,
  identityRowOperations, rowOnOperations, rowOperations, is2xx, warnReading, field, sweepOperations, sweepRow, allInOrder, inBatches
} from '../kit/index.ts';

function expectSameUser(ctx: CheckContext, res: HttpResponse, user: TestUser, what: string, rules?: RuleId[]) {
  // The user id under the preferred name of the user-read id alias, else the deprecated one (section 9).
  const { new: preferred, old } = ctx.model.aliasRule('ALIAS-USER-READ-ID');
  const got = field(res.json, preferred) ?? field(res.json, old);
  check(got === user.id, `${what}: answered user ${JSON.stringify(got)}, expected ${user.id}`, { rules, response: res });
}

async function identityHeaders(ctx: CheckContext, user: TestUser, kinds: IdentityKind[]): Promise<Record<string, string>> {
  const h = await s2sHeaders(ctx, user.client);
  for (const k of kinds) h[identityHeader(ctx, k)] = identityValue(user, k);
  return h;
}

export const drivers: Drivers = {
  'AUTH-IDENTITY-HEADER-KINDS': {
    title: 'Each identity header alone (X-User-Wallet with the EOA, X-User-Email, X-User-Id) identifies the user on {op:getUserV1} and {path:getUserV2}',
    safe: false,
    async run(ctx) {
      const user = await sharedUser(ctx);
      for (const kind of IDENTITY_KINDS) {
        for (const v of ['v1', 'v2'] as const) {
          const res = await readUser(ctx, v, await userHeaders(ctx, user, kind));
          expect2xx(res, `GET /api/${v}/user with ${identityHeader(ctx, kind)} only`);
          expectSameUser(ctx, res, user, `GET /api/${v}/user with ${identityHeader(ctx, kind)}`);
        }
      }
    },
  },

  'ERR-S2S-USER-IDENTIFIER-MISSING': {
    safe: true,
    async run(ctx) {
      const [h, bodies, ids] = await allInOrder(() => s2sHeaders(ctx), () => rowStepBodies(ctx), () => rowFixtureIds(ctx));
      // Every operation the row applies to (suites/kit/rows.ts), picked by fast-check; failures name it.
      // One value only, so fast-check's own picks just repeat operations: two after the examples.
      const ops = identityRowOperations(ctx, 'ERR-S2S-USER-IDENTIFIER-MISSING', bodies);
      const rest = sweepOperations(ctx, 'identity', ops, ids);
      // Every request lacks the identity header, so a conforming target refuses each without effect: the
      // runs and the sweep go out at once, a failure of the runs reported first.
      await allInOrder(
        () => rowOnOperations(ctx, ops, fc.constant(null), () => [null], async (o) => {
          expectError(ctx, await ctx.http.send({ op: o.op, headers: h, body: o.body }), 'ERR-S2S-USER-IDENTIFIER-MISSING');
        }, ops.length + 2),
        () => sweepRow(ctx, 'ERR-S2S-USER-IDENTIFIER-MISSING', rest, (o) => ctx.http.send({ op: o.op, ...(o.params ? { params: o.params } : {}), headers: h, body: o.body })),
      );
    },
  },

  // Requests worth their cost (issue 32): about 58 for one rule, kept. One request per operation the row
  // applies to (its fault may be wired on one handler only, as the bank's single-operation variants of
  // the S2S rows are), the 3 baseline reads, and 16 fast-check picks beyond them: the examples send all
  // three headers, the picks the pairs, which a target counting "more than two" would let through.
  'ERR-S2S-USER-IDENTIFIER-MULTIPLE': {
    title: 'Every combination of two or more identity headers of one existing user: 400 ErrorInvalidField naming user_identifier',
    safe: false,
    async run(ctx) {
      const [user, bodies, ids] = await allInOrder(() => sharedUser(ctx), () => rowStepBodies(ctx), () => rowFixtureIds(ctx));
      // Every operation the row applies to (suites/kit/rows.ts) with every subset of two or more headers.
      const ops = identityRowOperations(ctx, 'ERR-S2S-USER-IDENTIFIER-MULTIPLE', bodies);
      const rest = sweepOperations(ctx, 'identity', ops, ids);
      const all = await identityHeaders(ctx, user, [...IDENTITY_KINDS]);
      // The baseline reads change nothing and every row request carries several headers, which a
      // conforming target refuses without effect: all go out at once, reported in this order (a failed
      // baseline first, as when it ran first).
      await allInOrder(
        // Each header alone works (so only the "more than one" row can apply).
        () => inBatches(IDENTITY_KINDS, async (kind) => readUser(ctx, 'v1', await userHeaders(ctx, user, kind)), (kind, res) => expect2xx(res, `baseline: ${opLabel(ctx, 'getUserV1')} with ${identityHeader(ctx, kind)}`, ['AUTH-IDENTITY-HEADER-KINDS'])),
        () => rowOnOperations(ctx, ops, fc.subarray(IDENTITY_KINDS, { minLength: 2 }), () => [[...IDENTITY_KINDS]], async (o, kinds) => {
          const res = await ctx.http.send({ op: o.op, headers: await identityHeaders(ctx, user, kinds), body: o.body });
          expectError(ctx, res, 'ERR-S2S-USER-IDENTIFIER-MULTIPLE');
        }, ops.length + 16),
        () => sweepRow(ctx, 'ERR-S2S-USER-IDENTIFIER-MULTIPLE', rest, (o) => ctx.http.send({ op: o.op, ...(o.params ? { params: o.params } : {}), headers: all, body: o.body })),
      );
    },
  },

  // Requests worth their cost (issue 32): about 46 for one rule, kept. One request per operation the row
  // applies to (a lookup may be wrong on one handler only), each header kind in turn, and 12 picks that
  // put the other kinds on the operations (a lookup by email or wallet can fail where the id works).
  'ERR-S2S-USER-NOT-FOUND': {
    title: 'A user id, email or EOA address that belongs to no user: 400 ErrorNotFound "{message:ERR-S2S-USER-NOT-FOUND}"',
    safe: true,
    async run(ctx) {
      const ghost: TestUser = { id: rnd.uuid(), email: rnd.email(), address: rnd.address(), country: 'DE', client: 0 };
      // Every operation the row applies to (suites/kit/rows.ts), each identity header kind in turn first.
      const ops = identityRowOperations(ctx, 'ERR-S2S-USER-NOT-FOUND', await rowStepBodies(ctx));
      // A ghost user's request never reaches a fixture of the shared user: made-up ids suffice here.
      const rest = sweepOperations(ctx, 'identity', ops);
      // Every request names a user that does not exist, which a conforming target refuses without effect:
      // the runs and the sweep go out at once, a failure of the runs reported first.
      await allInOrder(
        () => rowOnOperations(ctx, ops, fc.constantFrom(...IDENTITY_KINDS), (i) => [IDENTITY_KINDS[i % IDENTITY_KINDS.length]], async (o, kind) => {
          expectError(ctx, await ctx.http.send({ op: o.op, headers: await userHeaders(ctx, ghost, kind), body: o.body }), 'ERR-S2S-USER-NOT-FOUND');
        }, ops.length + 12),
        () => sweepRow(ctx, 'ERR-S2S-USER-NOT-FOUND', rest, async (o) => ctx.http.send({ op: o.op, ...(o.params ? { params: o.params } : {}), headers: await userHeaders(ctx, ghost, IDENTITY_KINDS[rest.indexOf(o) % IDENTITY_KINDS.length]), body: o.body })),
      );
    },
  },

  // Requests worth their cost (issue 32): about 65 for one rule, kept. Isolation is a property of each
  // handler (the bank's isolation.cross-company.writes and .card-actions break writes or card actions
  // only), so every user-scoped read and write is tried; a write costs two requests, since only client
  // 2's own call with the same body tells that the company was the only fault.
  'AUTH-COMPANY-ISOLATION': {
    title: "Another company's user (created by client 2) with client 1's token, by id, email and address, on every user-scoped read and write: 400 ErrorNotFound (writes: whenever client 2's own call with the same body succeeds; else any refusal), never acted on",
    safe: false,
    needs: ['two_clients'],
    async run(ctx) {
      // The reads (client 2's shared user) and the writes (a fresh user of client 2, isolation-writes.ts)
      // touch nothing of each other: both go out at once, and a failure of the reads is reported first,
      // as when they ran first.
      const [reads, writes] = await Promise.allSettled([isolationOnReads(ctx), isolationOnWrites(ctx)]);
      if (reads.status === 'rejected') throw reads.reason;
      if (writes.status === 'rejected') throw writes.reason;
    },
  },

  'AUTH-X-USER-WALLET-IS-EOA': {
    title: "X-User-Wallet carries the EOA: the user's Smart Wallet address ({op:listWallets}) there is not found",
    safe: false,
    async run(ctx) {
      const user = await sharedUser(ctx);
      expect2xx(await readUser(ctx, 'v1', await userHeaders(ctx, user, 'wallet')), `${opLabel(ctx, 'getUserV1')} with X-User-Wallet = EOA`);
      // Sections 1 and 2: a user has an EOA and one or more Smart Wallets (polled: when it is provisioned is not shown).
      const listed = await requireSmartWallets(ctx, user);
      const wallets = listed.filter((w) => w.toLowerCase() !== user.address.toLowerCase());
      check(wallets.length > 0, `every Smart Wallet ${opLabel(ctx, 'listWallets')} lists (${listed.join(', ')}) is the user's EOA; X-User-Wallet carries the EOA, not the Smart Wallet address, so they differ (section 5)`);
      for (const w of wallets) {
        const res = await readUser(ctx, 'v1', await userHeaders(ctx, { ...user, address: w }, 'wallet'));
        expectError(ctx, res, 'ERR-S2S-USER-NOT-FOUND', ['AUTH-X-USER-WALLET-IS-EOA']);
      }
    },
  },

  // Requests worth their cost (issue 32): about 62 for two rules (the row and AUTH-CHAIN-ID-REQUIRED),
  // kept. The bank's chain.missing.accepted-on-withdrawals, chain.user-token.accepted-on-cards and
  // chain.missing.500-on-card-create break one operation each: only one request per operation of the
  // chain family, and per user-token route, meets them.
  'ERR-S2S-CHAIN-ID-MISSING': {
    title: 'Every S2S operation the model requires X-Chain-Id on (user calls, {op:createUserV1}) without it: 400 ErrorMissingField "{message:ERR-S2S-CHAIN-ID-MISSING}" (with it the user reads succeed); user-token and identity-provider calls without it: refused',
    safe: false,
    alsoCovers: ['AUTH-CHAIN-ID-REQUIRED'],
    async run(ctx) {
      const user = await sharedUser(ctx);
      const chainName = ctx.model.auth.chain_header;
      const drop = (h: Record<string, string>) => {
        const out = { ...h };
        delete out[chainName];
        return out;
      };
      const rules: RuleId[] = ['AUTH-CHAIN-ID-REQUIRED'];
      const [bodies, ids] = await Promise.all([rowStepBodies(ctx), rowFixtureIds(ctx)]);
      // Every S2S operation the model lists the header as required on (suites/kit/rows.ts family chain: user
      // calls, and POST /api/v1/user with a complete valid body), each identity header kind in turn.
      const ops = rowOperations(ctx, 'ERR-S2S-CHAIN-ID-MISSING', 'chain', bodies);
      // The rest of the family (path parameters, bodies not shown, money movers): all user calls.
      const rest = sweepOperations(ctx, 'chain', ops, ids);
      // Every route that accepts a user token (family user-token, x-auth user), one request each: the
      // answer is a refusal or not, so one request per route decides it (issue 33 item 9).
      const userOps = rowOperations(ctx, 'ERR-S2S-CHAIN-ID-MISSING', 'user-token', bodies).filter((o) => ctx.model.operation(o.op).auth.includes('user'));
      // The requests below lack the header (a conforming target refuses each without effect), or are
      // reads: none changes what another sees.
      // Three parts at once (about 10 requests in flight), the steps of each in the sequential order, the
      // parts in that order too: the failure reported is the one the sequential run met first.
      const [, , judgeLater] = await allInOrder(
        async () => {
          // Baseline: with the header the user reads succeed, so below the header is the only fault.
          await inBatches(['getUserV1', 'getUserV2'] as const, async (op) => ctx.http.send({ op, headers: await userHeaders(ctx, user, 'id') }), (op, res) => expect2xx(res, `baseline: ${op} with ${chainName}`));
          await rowOnOperations(ctx, ops, fc.constantFrom(...IDENTITY_KINDS), (i) => [IDENTITY_KINDS[i % IDENTITY_KINDS.length]], async (o, kind) => {
            const userCall = ctx.model.operation(o.op).userScoped;
            const res = await ctx.http.send({ op: o.op, headers: drop(userCall ? await userHeaders(ctx, user, kind) : await s2sHeaders(ctx)), body: o.body });
            // A user call that accepts it breaks section 5 ("also required on user calls"); POST /api/v1/user the row.
            if (userCall) expectRefusedBy(ctx, res, 'ERR-S2S-CHAIN-ID-MISSING', 'AUTH-CHAIN-ID-REQUIRED', `without ${chainName}`);
            else expectError(ctx, res, 'ERR-S2S-CHAIN-ID-MISSING');
          }, ops.length + 4);
        },
        async () => {
          await sweepRow(ctx, 'ERR-S2S-CHAIN-ID-MISSING', rest, async (o) => ctx.http.send({ op: o.op, ...(o.params ? { params: o.params } : {}), headers: drop(await userHeaders(ctx, user, IDENTITY_KINDS[rest.indexOf(o) % IDENTITY_KINDS.length])), body: o.body }));
          // authorize (S2S form) without the header: refused.
          const auth = await authorizeRaw(ctx, user, { [chainName]: undefined });
          expectRefusedBy(ctx, auth, 'ERR-S2S-CHAIN-ID-MISSING', 'AUTH-CHAIN-ID-REQUIRED', `${opLabel(ctx, 'authorizeUser')} without ${chainName}`);
          // Section 5 requires X-Chain-Id on user-token calls and on the identity-provider form too; section 7
          // shows a row only for S2S requests, so there any refusal with the section 7 body passes.
          const token = await userToken(ctx, user);
          await inBatches(userOps, (o) => ctx.http.send({ op: o.op, headers: bearer(token), body: o.body }), (o, noChain) => {
            expectNot2xx(noChain, `${o.label} with a user token and no ${chainName}`, rules);
            expectErrorShape(ctx, noChain, rules);
          });
        },
        async () => {
          // Sent now, judged after the parts above (a warning, a service the run lacks), where the sequential run judged them.
          const idp = async () => {
            if (!ctx.services.idp) return () => ctx.couldNotJudge(`${opLabel(ctx, 'authorizeUser')} (identity-provider form) without ${chainName} is refused`, 'a test identity provider the target trusts (profile.idp, or control setIdpConfig)');
            const who = await sharedIdpUser(ctx);
            const idpNoChain = await ctx.http.send({ op: 'authorizeUser', headers: drop(await idpHeaders(ctx, who)) });
            // Retail registration takes the same headers (section 4): a fresh identity, so only the header is missing.
            const retail = await ctx.http.send({ op: 'registerRetailUser', headers: drop(await idpHeaders(ctx, newIdpIdentity())), body: { country: 'DE' } });
            return () => {
              expectNot2xx(idpNoChain, `${opLabel(ctx, 'authorizeUser')} (identity-provider form) without ${chainName}`, rules);
              expectErrorShape(ctx, idpNoChain, rules);
              expectNot2xx(retail, `${opLabel(ctx, 'registerRetailUser')} without ${chainName}`, rules);
              expectErrorShape(ctx, retail, rules);
            };
          };
          const judgeIdp = await idp();
          // A non-numeric value: section 5 says what the header carries, not that another value is refused
          // (the rule's reading non-numeric-value): accepted is a warning, refused needs the section 7 body.
          const bad = await ctx.http.send({ op: 'getUserV1', headers: { ...(await userHeaders(ctx, user, 'id')), [chainName]: 'base-sepolia' } });
          return () => {
            judgeIdp();
            if (is2xx(bad)) warnReading(ctx, 'AUTH-CHAIN-ID-REQUIRED', 'non-numeric-value', `${opLabel(ctx, 'getUserV1')} with ${chainName}: base-sepolia (not numeric) answered HTTP ${bad.status}`);
            else expectErrorShape(ctx, bad, rules);
          };
        },
      );
      judgeLater();
    },
  },
};

/**
 * AUTH-COMPANY-ISOLATION on reads: client 1's token with client 2's user, by each identity header, on
 * every user-scoped read. A read changes nothing, so they are sent in concurrent batches; the answers are judged in
 * the order they are listed, so the failure reported is the one a sequential run would report first.
 */
async function isolationOnReads(ctx: CheckContext): Promise<void> {
  const theirs = await sharedUser(ctx, 1);
  const asOther = { ...theirs, client: 0 };
  const rules: RuleId[] = ['AUTH-COMPANY-ISOLATION'];
  const probes: (() => Promise<() => void>)[] = [];
  for (const kind of IDENTITY_KINDS) {
    probes.push(async () => {
      const res = await readUser(ctx, 'v1', await userHeaders(ctx, theirs, kind));
      return () => expect2xx(res, `baseline: client 2 reads its own user by ${identityHeader(ctx, kind)}`);
    });
    for (const v of ['v1', 'v2'] as const) {
      probes.push(async () => {
        const res = await readUser(ctx, v, await userHeaders(ctx, asOther, kind));
        return () => expectError(ctx, res, 'ERR-S2S-USER-NOT-FOUND', rules);
      });
    }
  }
  // The user token route must not cross companies either: authorize as client 1 with client 2's EOA.
  probes.push(async () => {
    const res = await authorizeRaw(ctx, asOther);
    return () => expectError(ctx, res, 'ERR-S2S-USER-NOT-FOUND', rules);
  });
  // Every other user-scoped read with a path (shown, or given by the profile) and no path parameter:
  // reads carry no body, so the other company's user is the only fault: exactly the not-found row.
  const reads = [...ctx.model.operations.values()].filter((op) => op.userScoped && op.server === 'api' && op.method.toLowerCase() === 'get'
    && (!op.pathUnspecified || ctx.profile.operations[op.operationId]) && !/\{\w+\}/.test(op.path));
  for (const op of reads) {
    if (op.operationId === 'getUserV1' || op.operationId === 'getUserV2') continue;
    const kind = IDENTITY_KINDS[reads.indexOf(op) % IDENTITY_KINDS.length];
    probes.push(async () => {
      const h = await userHeaders(ctx, asOther, kind);
      const where = `${op.method.toUpperCase()} ${op.path} (${op.operationId}) with client 1's token and client 2's user by ${identityHeader(ctx, kind)}`;
      const res = await ctx.http.send({ op: op.operationId, headers: h });
      return () => {
        try {
          expectError(ctx, res, 'ERR-S2S-USER-NOT-FOUND', rules);
        } catch (err) {
          throw err instanceof CheckFailure ? new CheckFailure(`${where}: ${err.message}`, { rules, response: res }) : err;
        }
      };
    });
  }
  // At most READS_AT_ONCE in flight (a burst is not what the check is about); judged in listed order.
  const settled: PromiseSettledResult<() => void>[] = [];
  for (let i = 0; i < probes.length; i += READS_AT_ONCE) settled.push(...(await Promise.allSettled(probes.slice(i, i + READS_AT_ONCE).map((p) => p()))));
  for (const judged of settled) {
    if (judged.status === 'rejected') throw judged.reason;
    judged.value();
  }
}

/** Reads of isolationOnReads in flight at once. */
const READS_AT_ONCE = 8;
