// The test-control contract as an interface: the engine asks an adapter to perform a control
// operation of spec/control.yaml; how it reaches the target (our control API over HTTP, a vendor's
// sandbox-simulation calls described in a file, a JS module) is the adapter's business.

import { ControlAdapterError } from '../errors/index.ts';
import type { HttpClient } from '../client/types.ts';

/** Inputs of one control operation: path parameters and request-body fields, as spec/control.yaml names them. */
export interface ControlInput {
  params?: Record<string, string>;
  body?: Record<string, unknown>;
}

/** A JSON object answer: its fields are the target's, unchecked until a caller narrows them. */
export type ControlJson = { readonly [field: string]: unknown };

/** The answer, with `json` in the shape spec/control.yaml gives for the operation's success response. */
export interface ControlAnswer {
  status: number;
  /** True when the adapter counts the status as success (default: 2xx). */
  ok: boolean;
  /** The JSON object of the answer; undefined when the body is not a JSON object (every control answer of spec/control.yaml is one). */
  json: ControlJson | undefined;
  text: string;
}

export interface ControlAdapter {
  kind: 'http' | 'file' | 'module';
  /** What configured it, for skip reasons and logs: "profile.control_url", "control adapter file x.yaml". */
  source: string;
  /** Operation ids of spec/control.yaml this adapter performs. */
  operations(): string[];
  supports(operationId: string): boolean;
  /**
   * Performs one operation. Requests go through `http` (the calling check's client, or the runner's
   * for registrations) so they are recorded, masked and bounded like every other exchange.
   */
  call(http: HttpClient, operationId: string, input: ControlInput): Promise<ControlAnswer>;
}

export { ControlAdapterError };

/** The answer body as a ControlAnswer holds it: a JSON object, or undefined. */
export function controlJson(body: unknown): ControlJson | undefined {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as ControlJson) : undefined;
}
