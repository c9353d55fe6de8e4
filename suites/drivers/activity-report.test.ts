// EVENT-ACTIVITY-WEBHOOK-REPORTS reading activity-reference: every way of naming the activity the spec
// allows is accepted; only a delivery naming another activity_id, or another type or direction than
// the activity reads, is refused.
import { describe, expect, it } from 'vitest';
import { activityReportProblem } from './activity-report.ts';

const ID = 'act-1';
const READ = { type: 'CardTransaction', direction: 'Outbound' };

describe('activityReportProblem', () => {
  it('accepts activity_id, id only, an envelope, the id anywhere, and absent type or direction', () => {
    expect(activityReportProblem({ activity_id: ID, id: ID, type: 'CardTransaction', direction: 'Outbound' }, ID, READ)).toBeUndefined();
    expect(activityReportProblem({ id: ID, status: 'Completed' }, ID, READ)).toBeUndefined();
    expect(activityReportProblem({ event: 'activity.updated', data: { id: ID, type: 'CardTransaction', direction: 'Outbound' } }, ID, READ)).toBeUndefined();
    expect(activityReportProblem({ ref: { value: ID } }, ID, READ)).toBeUndefined();
    expect(activityReportProblem({ activity_id: ID }, ID, undefined)).toBeUndefined();
  });

  it('refuses another activity_id, and a type or direction the activity does not read', () => {
    expect(activityReportProblem({ activity_id: 'act-2', id: ID }, ID, READ)).toMatch(/activity_id "act-2"/);
    expect(activityReportProblem({ data: { activity_id: 'act-2', ref: ID } }, ID, READ)).toMatch(/act-2/);
    expect(activityReportProblem({ activity_id: ID, direction: 'Inbound' }, ID, READ)).toMatch(/direction "Inbound"/);
    expect(activityReportProblem({ data: { id: ID, type: 'BankTransfer' } }, ID, READ)).toMatch(/type "BankTransfer"/);
  });
});
