// Every tool the server offers, in the order hosts list them.
import type { AnyTool } from '../src/mcp/tool.ts';
import { archiveProject } from './archive-project.ts';
import { compareRuns } from './compare-runs.ts';
import { createProject } from './create-project.ts';
import { getReport } from './get-report.ts';
import { listProjects } from './list-projects.ts';
import { listRuns } from './list-runs.ts';
import { pageFindings } from './page-findings.ts';
import { recheckTool } from './recheck.ts';
import { restoreProject } from './restore-project.ts';
import { startRun } from './start-run.ts';
import { waitForRun } from './wait-for-run.ts';
import { whoami } from './whoami.ts';

export const TOOLS: readonly AnyTool[] = [
  whoami,
  listProjects,
  createProject,
  restoreProject,
  archiveProject,
  startRun,
  waitForRun,
  getReport,
  pageFindings,
  listRuns,
  compareRuns,
  recheckTool,
];
