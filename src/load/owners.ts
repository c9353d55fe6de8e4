// Card owners of the consistency scenario. listCards answers every card of a user in one body and the
// spec shows no paging for it (section 4 shows page_number/page_size for the activity feed only), so
// the scenario spreads its card writes over users: each owner gets at most about cardsPerOwner() cards
// (its list fits the read-back bound), and the next owner is created (setup traffic, not measured load) while the current one fills. Each
// read-back then stays small at any volume; one that still cannot be read whole is "could not read".

import type { OperationId } from '../model/index.ts';
import { live, userHeaders, type LoadRequest, type MixEntry } from './mix.ts';
import { readBack } from './read-back.ts';
import { createUser, MAX_SETUP_BODY, operation, type SetupHttp } from './setup.ts';
import type { TokenKeeper } from './tokens.ts';

/**
 * Room per card in an owner's list: the spec shows no card size, so a generous one (a card of the
 * reference is ~150 bytes). The default 1 MiB read-back bound then gives 256 cards per owner.
 */
export const BYTES_PER_CARD = 4096;

/** Cards per owner for a read-back bound: its list fits the bound at BYTES_PER_CARD each. */
export function cardsPerOwner(maxBodyBytes = MAX_SETUP_BODY): number {
  return Math.max(2, Math.floor(maxBodyBytes / BYTES_PER_CARD));
}
/** Owner creations that may fail in a row before the pool stops growing (and says so). */
const MAX_FAILURES = 5;

export class CardOwners {
  private readonly list: { id: string; cards: number }[];
  private current = 0;
  private pending: Promise<void> | undefined;
  private failures = 0;
  /** Why the pool stopped growing, when it did. */
  problem: string | undefined;

  constructor(first: string, private readonly create: () => Promise<string>, readonly cap: number) {
    this.list = [{ id: first, cards: 0 }];
  }

  /** The owner of the next card. The next owner is made once the current one is half full. */
  next(): string {
    if (this.list[this.current].cards >= this.cap && this.current + 1 < this.list.length) this.current++;
    const o = this.list[this.current];
    o.cards++;
    if (o.cards >= this.cap / 2 && this.current + 1 === this.list.length) this.grow();
    return o.id;
  }

  private grow(): void {
    if (this.pending || this.failures >= MAX_FAILURES) return;
    this.pending = this.create().then(
      (id) => {
        this.list.push({ id, cards: 0 });
        this.failures = 0;
      },
      (e: Error) => {
        if (++this.failures >= MAX_FAILURES) this.problem = `could not create a further card owner (${e.message}); later cards went to the last owner`;
      },
    ).finally(() => {
      this.pending = undefined;
    });
  }

  /** Waits for an owner creation under way (after the load, before reading back). */
  async settle(): Promise<void> {
    await this.pending;
  }

  /** How many owners took cards, and the most cards one was given. */
  stats(): { owners: number; largest: number } {
    const used = this.list.filter((o) => o.cards > 0);
    return { owners: used.length, largest: Math.max(0, ...used.map((o) => o.cards)) };
  }
}

/**
 * A pool whose owners are users created with the run's S2S token, each read back before it takes a
 * card: cards for a user the target did not keep would fail as errors and hide the loss behind them.
 */
export function cardOwners(s: SetupHttp, tokens: TokenKeeper, first: string): CardOwners {
  const get = operation(s, 'getUserV1');
  return new CardOwners(first, async () => {
    const id = await createUser(s, tokens.token());
    const r = await readBack(s, get.method, get.path, userHeaders(s.model, tokens.token(), id, s.profile.chain_id));
    if (r.kind !== 'read') throw new Error(`user ${id} was acknowledged, then getUserV1 ${r.kind === 'absent' ? `answered HTTP ${r.status}` : `could not be read (${r.why})`}`);
    return id;
  }, cardsPerOwner(s.session.maxBodyBytes));
}

/** A write mix entry whose every request acts for the pool's next owner (`owner` rides on the request to observe). */
export function ownedWrites(s: SetupHttp, tokens: TokenKeeper, op: OperationId, weight: number, owners: CardOwners, body: () => Record<string, unknown>): MixEntry {
  // `live` applies the profile's request template to each fresh body; the owner's headers go on top.
  const base = live(s, tokens, op, weight, () => ({}), body);
  let cached: { owner: string; version: number; headers: Record<string, string> } | undefined;
  return {
    op,
    weight,
    build(): LoadRequest {
      const r = base.build();
      const owner = owners.next();
      if (cached?.owner !== owner || cached.version !== tokens.version) {
        cached = { owner, version: tokens.version, headers: { ...r.headers, ...userHeaders(s.model, tokens.token(), owner, s.profile.chain_id) } };
      }
      return { ...r, headers: cached.headers, owner };
    },
  };
}
