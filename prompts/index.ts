// Every prompt the server offers.
import type { AnyPrompt } from '../src/mcp/prompt.ts';
import { auditSite } from './audit-site.ts';
import { fixFindings } from './fix-findings.ts';

export const PROMPTS: readonly AnyPrompt[] = [auditSite, fixFindings];
