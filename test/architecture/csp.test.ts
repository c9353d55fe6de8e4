// Every HTML page any mode writes (run, selftest, load, compare, history, audit) comes from a template
// in reports/ rendered by src/report/html-template.ts under one strict CSP: the stylesheet allowed by
// its hash, no 'unsafe-inline', no style attribute a hash cannot cover. The browser tests
// (test/browser/*-report.test.ts) open each page and find no CSP violation; this pins the sources.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './scan.ts';

const templates = readdirSync(path.join(ROOT, 'reports')).filter((n) => n.endsWith('.html.hbs'));

describe('one CSP for every page', () => {
  it('every page template takes the shared head (hashed CSP) and no inline style attribute', () => {
    expect(templates).toEqual(expect.arrayContaining(['report.html.hbs', 'load.html.hbs', 'audit.html.hbs', 'compare.html.hbs', 'history.html.hbs', 'selftest.html.hbs']));
    for (const t of templates) {
      const text = readFileSync(path.join(ROOT, 'reports', t), 'utf8');
      expect(text, t).toContain('{{> head}}');
      expect(text, t).not.toMatch(/style="|<script/);
    }
    for (const p of readdirSync(path.join(ROOT, 'reports/partials'))) expect(readFileSync(path.join(ROOT, 'reports/partials', p), 'utf8'), p).not.toMatch(/style="|<script/);
  });

  it("no source writes a page of its own with 'unsafe-inline' or an html document by hand", () => {
    const offenders = sourceFiles(path.join(ROOT, 'src'))
      // Generated code, and the faulty targets of the mutant bank (a stack's HTML error page is a fault they serve).
      .filter((f) => !f.includes(`${path.sep}generated${path.sep}`) && !f.includes(`${path.sep}variants${path.sep}`))
      .filter((f) => /unsafe-inline|<!doctype html/i.test(readFileSync(f, 'utf8')))
      .map((f) => path.relative(ROOT, f));
    expect(offenders).toEqual([]);
  });
});
