import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Writes a report file, creating its directory. */
export async function writeReport(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content, 'utf8');
}
