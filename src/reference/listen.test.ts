// listen: the port a server got, and a port already taken is a rejected promise the caller can report.
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { listen } from './listen.ts';

describe('listen', () => {
  it('resolves the port it got; a taken port rejects with EADDRINUSE', async () => {
    const a = createServer();
    const b = createServer();
    try {
      const port = await listen(a, 0, '127.0.0.1');
      expect(port).toBeGreaterThan(0);
      await expect(listen(b, port, '127.0.0.1')).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      a.close();
      b.close();
    }
  });
});
