// Issue 13, time and rate limits (section 8): faults that only show with the control clock or with
// several clients and loopback addresses. Every variant here switches on a real reference fault point.

import { faulty, faults, type VariantSpec } from '../variant.ts';

export function clockVariants(): VariantSpec[] {
  return [
    // Section 5/8: validity 48 hours. The token's exp says 48 h but the server refuses it after 24 h.
    // The claims are right (limits.s2s.token-validity passes): only a token used for a day shows it.
    { ...faulty('s2s.validity.refused-after-24h', 'LIMIT-S2S-TOKEN-VALIDITY', 'the server refuses S2S tokens as expired once they are 24 h old, before their 48 h exp', faults('s2s.short-validity')), reach: ['limits.s2s.token-lifetime'] },
    // Section 8: withdrawal delay "minimum about 3 seconds": valid_after is the request time itself.
    faulty('withdrawal.delay.none', 'LIMIT-WITHDRAWAL-DELAY', 'a new withdrawal request has valid_after = the request time (no delay)', faults('withdrawal.valid-after-now')),
    // Section 8: "3DS decision window: 5 minutes". Both sides: a window too short refuses a decision
    // the spec allows, a window too long accepts one it forbids (states.3ds.expiry probes 280 s and 306 s).
    faulty('3ds.window.1-minute', 'LIMIT-3DS-WINDOW', 'a 3DS challenge expires 60 s after creation instead of 5 minutes', faults('3ds.window-short')),
    faulty('3ds.window.10-minutes', 'LIMIT-3DS-WINDOW', 'a 3DS challenge expires 10 minutes after creation instead of 5', faults('3ds.window-long')),
    // Section 8: "limited per IP and per client". Each variant keeps one limiter only; they run with the
    // reference's own limits (realRateLimit), which its profile documents (rate_limit.per_ip, per_client).
    { ...faulty('ratelimit.per-ip-only', 'LIMIT-TOKEN-RATE-LIMIT', 'the token endpoint limits per IP only: one client spread over several addresses is never refused', faults('ratelimit.per-ip-only')), realRateLimit: true },
    { ...faulty('ratelimit.per-client-only', 'LIMIT-TOKEN-RATE-LIMIT', 'the token endpoint limits per client only: one address is refused only when a client reaches its own limit', faults('ratelimit.per-client-only')), realRateLimit: true },
  ];
}
