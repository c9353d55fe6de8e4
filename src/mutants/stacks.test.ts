// The stack-default variants (variants/stacks.ts) against the reference they wrap: the framework route
// answers are what FastAPI and Express send, and the rows given other reasons are exactly the rows the
// model gives no reason (spec/rules/errors.yaml reason: null), so the list cannot drift from the spec.
import { afterEach, describe, expect, it } from 'vitest';
import { loadModel } from '../model/index.ts';
import { startReference, type ReferenceServer } from '../reference/index.ts';
import { variantsById } from './registry.ts';
import { UNNAMED_REASON_ROWS } from './variants/stacks.ts';

let ref: ReferenceServer | undefined;
afterEach(async () => {
  await ref?.close();
  ref = undefined;
});

async function call(method: string, path: string) {
  const res = await fetch(`${ref!.profile.base_url}${path}`, { method, redirect: 'manual' });
  return { status: res.status, type: res.headers.get('content-type'), location: res.headers.get('location'), text: await res.text() };
}

describe('stack-default variants', () => {
  it('gives other reasons on exactly the section 7 rows that name none', async () => {
    const model = await loadModel();
    const open = model.rules.filter((r) => r.kind === 'error' && r.reason === null).map((r) => r.id).sort();
    expect(Object.keys(UNNAMED_REASON_ROWS).sort()).toEqual(open);
  });

  it('answers undocumented routes as FastAPI does: 404 and 405 {"detail"}, 307 from a trailing slash', async () => {
    const [v] = variantsById(['benign.routes.fastapi']);
    ref = await startReference(v.options);
    expect(await call('GET', '/api/v1/nowhere')).toMatchObject({ status: 404, text: '{"detail":"Not Found"}' });
    expect(await call('DELETE', '/api/v1/config')).toMatchObject({ status: 405, text: '{"detail":"Method Not Allowed"}' });
    expect(await call('GET', '/api/v1/config/')).toMatchObject({ status: 307, location: '/api/v1/config', text: '' });
    // A documented route is untouched.
    expect((await call('GET', '/api/v1/config')).status).toBe(400);
  });

  it('answers undocumented routes with Spring Boot\'s whitelabel JSON', async () => {
    const [v] = variantsById(['benign.routes.spring']);
    ref = await startReference(v.options);
    const res = await call('GET', '/api/v1/nowhere');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toMatchObject({ status: 404, error: 'Not Found', path: '/api/v1/nowhere', timestamp: expect.any(String) });
  });

  it('answers undocumented routes as Express (HTML 404) and ASP.NET (empty 405) do', async () => {
    const [v] = variantsById(['benign.routes.express']);
    ref = await startReference(v.options);
    expect(await call('GET', '/api/v1/nowhere')).toMatchObject({ status: 404, type: 'text/html; charset=utf-8', text: expect.stringContaining('Cannot GET /api/v1/nowhere') });
    expect(await call('DELETE', '/api/v1/config')).toMatchObject({ status: 405, text: '' });
  });
});
