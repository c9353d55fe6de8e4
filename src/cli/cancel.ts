// Ctrl-C on a long command: the first SIGINT aborts the signal the library call was given (it stops
// starting work and still writes what it has), the second falls through to Node's default (quit).
import type { CliIo } from './types.ts';

export async function withCancellation<T>(io: CliIo, what: string, body: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSigint = () => {
    io.stderr.write(`\ncancelling: ${what} (Ctrl-C again to quit)\n`);
    controller.abort(new Error('cancelled'));
  };
  process.once('SIGINT', onSigint);
  try {
    return await body(controller.signal);
  } finally {
    process.off('SIGINT', onSigint);
  }
}
