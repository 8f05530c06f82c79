// The verify line of a static check that shares its concern with axe (issue 25): axe run with exactly
// the rules that decide the check on a rendered page (axe-verdicts.ts), so that the line shows what
// the finding reports: `form-labels` fails on an unnamed <select> by axe's select-name, and its line
// runs select-name too.
import { axe } from '../standards.ts';
import { AXE_DECIDES } from './axe-verdicts.ts';

/** `npx @axe-core/cli {url} --rules ...` with the axe rules that decide `checkId`. */
export function axeOf(checkId: string): string {
  const shared = AXE_DECIDES[checkId];
  if (!shared) throw new Error(`${checkId} shares no axe rule (axe-verdicts.ts)`);
  return axe(shared.rules.join(','));
}
