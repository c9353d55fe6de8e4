// Load tests generate real traffic. Refuse any target that is not on this machine unless the
// operator says explicitly that they own it (--allow-remote).

import { isIP } from 'node:net';
import { ConfigError } from '../errors/index.ts';

// The bounds live with the other load options (options.ts); re-exported for existing importers.
export { LOAD_LIMITS } from './options.ts';

/** true for 127.0.0.0/8, ::1 (and its IPv4-mapped forms) and localhost. */
export function isLoopbackHost(hostname: string): boolean {
  let h = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (mapped) h = mapped[1];
  if (isIP(h) === 4) return h.split('.')[0] === '127';
  if (isIP(h) === 6) return h === '::1' || /^(0{1,4}:){7}0{0,3}1$/.test(h) || h === '0:0:0:0:0:0:0:1';
  return false;
}

export function assertTargetAllowed(baseUrl: string, allowRemote: boolean): void {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigError(`load: target base_url ${JSON.stringify(baseUrl)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`load: target ${url.origin} must be http: or https:`);
  if (allowRemote || isLoopbackHost(url.hostname)) return;
  throw new ConfigError(
    `load: refusing to load-test ${url.origin}: its host is not loopback (127.0.0.0/8, ::1, localhost). ` +
      'Load tests send sustained traffic and must only be run against targets you own or are authorised to load; ' +
      'if that is the case, pass --allow-remote explicitly.',
  );
}
