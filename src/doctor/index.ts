// `baas-conform doctor`: one read-only probe of a target and what its profile unlocks.
export { runDoctor, type DoctorOptions, type DoctorReport, type Probe, type ProbeStatus, type Unlock } from './probe.ts';
export { formatDoctor } from './format.ts';
