// Tool name and version for reports, read once from package.json (the single source of the version).
import { readFileSync } from 'node:fs';

export const TOOL_NAME = 'baas-conform';
export const TOOL_VERSION: string = (() => {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
})();
