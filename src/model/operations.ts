// The operations of an OpenAPI document (spec/openapi.yaml), keyed by operationId, with what checks
// and load scenarios read of them: method, path, server (the card-tokenization environment is named
// by its pci_url server), auth, the x- facts the spec model adds, and the request and response schemas.

import { ModelError } from '../errors/index.ts';
import { HTTP_METHODS, type RawOpenApi } from './raw.ts';
import type { Operation, OperationId } from './types.ts';

/** Every operation of `openapi` (file `rel` under spec/, for errors); a missing or repeated operationId is a ModelError. */
export function collectOperations(openapi: RawOpenApi, rel: string): Map<string, Operation> {
  const ops = new Map<string, Operation>();
  for (const [p, item] of Object.entries(openapi.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item?.[method];
      if (!op) continue;
      const pointer = `/paths/${p.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}`;
      if (!op.operationId) throw new ModelError(`spec/${rel}`, pointer, 'operation has no operationId');
      if (ops.has(op.operationId)) throw new ModelError(`spec/${rel}`, `${pointer}/operationId`, `duplicate operationId "${op.operationId}"`);
      const requestSchema = op.requestBody?.content?.['application/json']?.schema;
      const responseSchemas: Record<string, object> = {};
      for (const [code, resp] of Object.entries(op.responses ?? {})) {
        const schema = resp?.content?.['application/json']?.schema;
        if (schema) responseSchemas[code] = schema;
      }
      const deprecatedRequestFields: string[] = [];
      for (const [name, prop] of Object.entries(requestSchema?.properties ?? {})) {
        if (prop?.deprecated) deprecatedRequestFields.push(name);
      }
      const servers = op.servers ?? item.servers;
      const isPci = Array.isArray(servers) && servers.some((s) => String(s.url).includes('pci_url'));
      ops.set(op.operationId, {
        operationId: op.operationId as OperationId,
        method: method.toUpperCase(),
        path: p,
        server: isPci ? 'pci' : 'api',
        pathUnspecified: op['x-path-unspecified'] === true,
        auth: op['x-auth'] ?? [],
        authUnspecified: op['x-auth-unspecified'] === true,
        userScoped: op['x-user-scoped'] === true,
        parameters: [...(item.parameters ?? []), ...(op.parameters ?? [])].map((x) => ({ name: String(x.name), in: String(x.in), required: x.required === true, ...(typeof x.schema?.pattern === 'string' ? { pattern: x.schema.pattern } : {}) })),
        hasRequestBody: op.requestBody !== undefined,
        deprecatedRequestFields,
        requestSchema,
        responseSchemas,
        mutates: op['x-mutates'] === true,
        movesMoney: op['x-moves-money'] === true,
      });
    }
  }
  return ops;
}
