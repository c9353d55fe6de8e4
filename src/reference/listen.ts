// Listening on a port and learning which one (0: any free port), a failure to bind rejected rather than
// thrown as an unheard 'error' event: the reference and the audit's bank front both start this way.

import type { Server } from 'node:http';
import type { Server as TlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export function listen(server: Server | TlsServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
