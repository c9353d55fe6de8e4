// Card data stays away from base_url (section 4 rule 3: tokenize in the card-tokenization environment,
// then use the token). Every request to base_url is searched, routed or not: a card number sent to a
// path the API does not have is still a card number on the wrong host.

import type { Exchange } from '../types.ts';
import { cite, notExercised, seqs, type Judge, type JudgeGroup } from './context.ts';

/** 13 to 19 digits, optionally grouped by spaces or dashes, not part of a longer token (hex, ids). */
const DIGIT_RUN = /(?<![0-9A-Za-z])(?:[0-9][ -]?){12,18}[0-9](?![0-9A-Za-z])/g;

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Epoch milliseconds (2001..2033) are 13 digits too; they are timestamps, not cards. */
const isEpochMs = (d: string) => d.length === 13 && Number(d) >= 1e12 && Number(d) < 2e12;

/**
 * UUIDs (8-4-4-4-12 hex): one whose first groups happen to be all digits reads as a dash-grouped digit
 * run (~1 in 10^4 random ids, Luhn included), and ids fill paths and bodies. No card number has that shape.
 */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

export function cardNumbersIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.replace(UUID, 'uuid').matchAll(DIGIT_RUN)) {
    const d = m[0].replace(/[ -]/g, '');
    if (d.length >= 13 && d.length <= 19 && luhn(d) && !isEpochMs(d)) out.push(d);
  }
  return out;
}

const textOf = (e: Exchange) => [decodeURIComponent(e.path), e.query, e.bodyText, ...Object.values(e.headers)].join('\n');

export const panPciOnly: Judge = (ctx) => {
  const api = ctx.exchanges.filter((e) => e.server === 'api');
  const leaked = api.filter((e) => {
    try {
      return cardNumbersIn(textOf(e)).length > 0;
    } catch {
      return cardNumbersIn([e.path, e.query, e.bodyText].join('\n')).length > 0;
    }
  });
  const tokenized = ctx.exchanges.filter((e) => e.server === 'pci');
  if (leaked.length > 0) {
    const where = leaked.slice(0, 3).map((e) => `#${e.seq} ${e.method} ${e.path}${e.operationId ? '' : ' (no such route)'}`).join('; ');
    return { status: 'fail', message: `${leaked.length} request(s) to base_url carried a card number (${where}); card data goes to pci_url only, then the card_token is used`, exchanges: seqs(leaked) };
  }
  if (tokenized.length === 0) return notExercised('the client never called the card-tokenization environment, and sent no card number to base_url');
  return { status: 'pass', message: `${api.length} request(s) to base_url carried no card number; ${tokenized.length} went to pci_url (${cite(seqs(tokenized))})`, exchanges: seqs(tokenized) };
};

/** The client rules this file judges, by id (index.ts joins every file's group into JUDGES). */
export const CARD_DATA_JUDGES = {
  'CLIENT-PAN-PCI-ONLY': panPciOnly,
} satisfies JudgeGroup;
