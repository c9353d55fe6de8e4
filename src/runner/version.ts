// Tool name and version for reports, read once from package.json (the single source of the version).
import { readFileSync } from 'node:fs';
import { packagePath } from '../package/index.ts';

export const TOOL_NAME = 'baas-conform';
export const TOOL_VERSION: string = (() => {
  try {
    return (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
})();
