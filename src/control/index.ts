// Test-control adapters: the control contract of spec/control.yaml as an interface, with our HTTP
// control API, a declarative adapter file and a JS module as implementations.
export type { ControlAdapter, ControlAnswer, ControlInput, ControlJson } from './types.ts';
export { ControlAdapterError, controlJson } from './types.ts';
export { controlOperations, controlNeed, type ControlOperation } from './operations.ts';
export { httpControlAdapter } from './http-adapter.ts';
export { loadAdapterFile, parseAdapter, fileAdapter, type AdapterFile } from './file-adapter.ts';
export { loadAdapterModule } from './module-adapter.ts';
export { resolveControlAdapter } from './resolve.ts';
export { guardAdapter, adapterRefused, adapterMalformed, answerProblem, ControlAdapterFault, isControlAdapterFault, type AdapterFaultInfo, type AdapterProblem } from './guard.ts';
export { clockKeyOf, clockMoved, restoreClock, type ClockCleanup } from './clock.ts';
export type { ControlHttp, ControlHttpRequest, ControlModule, ControlModuleOperation, ControlModuleTools } from './module-contract.ts';
