// A reporter that collects a run's events and writes one file when the run ends: the json, ctrf and
// html reporters differ only in how the collected run becomes the file's text.

import type { Reporter, RunEvent } from '../events/index.ts';
import { RunCollector } from './collect.ts';
import { writeReport } from './files.ts';

export class FileReporter implements Reporter {
  private readonly collector = new RunCollector();
  constructor(
    private readonly path: string,
    private readonly render: (collected: RunCollector) => string | Promise<string>,
  ) {}
  onEvent(e: RunEvent): void {
    this.collector.onEvent(e);
  }
  async close(): Promise<void> {
    await writeReport(this.path, await this.render(this.collector));
  }
}
