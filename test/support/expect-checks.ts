// Asserts a check's status on several audited sites at once, naming the site and the check's own
// detail when it differs, so a table row reads as "this check: pass here, fail there".
import { expect } from 'vitest';
import type { AuditOutcome } from '../../src/audit/index.ts';

export function expectCheckStatuses(
  outcomes: Record<string, AuditOutcome<unknown> | undefined>,
  checkId: string,
  expected: Record<string, string | undefined>,
): void {
  for (const [host, status] of Object.entries(expected)) {
    const row = outcomes[host]?.checks.find((c) => c.id === checkId);
    expect(row?.status, `${host}: ${row?.detail}`).toBe(status);
  }
}
