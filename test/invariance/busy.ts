// Competing processes for the "busy" conditions: each spins one core until stopped. Each also ends
// itself after maxMs, so a crashed parent cannot leave a core burning.

import { spawn, type ChildProcess } from 'node:child_process';

export interface Burners {
  stop(): Promise<void>;
}

export function startBurners(count: number, maxMs: number): Burners {
  const children: ChildProcess[] = [];
  for (let i = 0; i < count; i++) {
    const code = `const end = Date.now() + ${Math.floor(maxMs)}; let x = 0; while (Date.now() < end) { for (let i = 0; i < 1e6; i++) x += i; }`;
    children.push(spawn(process.execPath, ['-e', code], { stdio: 'ignore' }));
  }
  return {
    stop: async () => {
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve();
              c.once('exit', () => resolve());
              c.kill('SIGKILL');
            }),
        ),
      );
    },
  };
}
