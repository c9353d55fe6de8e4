// Page templates for the HTML reports (reports/*.html.hbs) with their partials (reports/partials/*.hbs)
// and stylesheets (reports/css/*.css). Every page is self-contained and runs under a strict CSP:
// `default-src 'none'` and one inline stylesheet allowed by its sha256 hash, so no script, no
// inline style attribute and no external resource can load, whatever text the target sent.
//
// Handlebars escapes every `{{value}}`; templates never use triple-stash. The stylesheet is
// registered as a partial (static text) so it is written verbatim and its hash holds.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { packagePath } from '../package/index.ts';

/** reports/ at the package root: right from src/ (tsx) and from the compiled dist/ alike. */
const REPORTS_DIR = packagePath('reports');

export interface PageTemplate {
  /** Renders the page; `view` must not carry `csp` (it is set here). */
  render(view: object): string;
  /** The Content-Security-Policy written in the page. */
  csp: string;
}

/** The policy for a page whose only inline content is the stylesheet with this text. */
export function cspFor(css: string): string {
  const hash = createHash('sha256').update(css, 'utf8').digest('base64');
  return `default-src 'none'; style-src 'sha256-${hash}'; img-src 'none'; base-uri 'none'; form-action 'none'`;
}

function readDir(sub: string, suffix: string): Map<string, string> {
  const dir = join(REPORTS_DIR, sub);
  const out = new Map<string, string>();
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names.filter((n) => n.endsWith(suffix)).sort()) out.set(name.slice(0, -suffix.length), readFileSync(join(dir, name), 'utf8'));
  return out;
}

const cache = new Map<string, PageTemplate>();

/**
 * Compiles reports/<name>.html.hbs with every partial of reports/partials and the stylesheets named
 * in `styles` (reports/css/<style>.css, concatenated in order) as the partial `style`.
 */
export function pageTemplate(name: string, styles: string[]): PageTemplate {
  const key = `${name}:${styles.join(',')}`;
  const hit = cache.get(key);
  if (hit) return hit;
  // A private instance: helpers or partials registered elsewhere cannot change this output.
  const hbs = Handlebars.create();
  for (const [partial, text] of readDir('partials', '.hbs')) hbs.registerPartial(partial, text);
  const sheets = readDir('css', '.css');
  const css = styles
    .map((s) => {
      const text = sheets.get(s);
      if (text === undefined) throw new Error(`reports/css/${s}.css is missing`);
      return text;
    })
    .join('\n');
  if (css.includes('{{') || css.includes('</')) throw new Error('a stylesheet in reports/css holds "{{" or "</": it would not be written verbatim');
  hbs.registerPartial('style', css);
  const compiled = hbs.compile(readFileSync(join(REPORTS_DIR, `${name}.html.hbs`), 'utf8'), { strict: false, noEscape: false, preventIndent: true });
  const csp = cspFor(css);
  const page: PageTemplate = { csp, render: (view) => compiled({ ...view, csp }) };
  cache.set(key, page);
  return page;
}
