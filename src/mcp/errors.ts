// API errors as tool errors (isError): they name the service's code and tell the model what to do next,
// so it can recover, ask the person, or stop, instead of guessing from a status line.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { ApiClientError } from '../client/index.ts';

export interface ToolError {
  code: string;
  /** The service's HTTP status; absent for refusals that never reached the service. */
  status?: number;
  message: string;
  action: string;
  retryAfterSeconds?: number;
  details?: Record<string, unknown>;
}

function detail(error: ApiClientError, key: string): unknown {
  return error.details[key];
}

/** What to do about an error, by the service's code (spec 7) and status. */
export function adviceFor(error: ApiClientError): string {
  switch (error.code) {
    case 'insufficient_credits': {
      const required = detail(error, 'required');
      const remaining = detail(error, 'remaining');
      const figures = required !== undefined ? ` It needs ${required} credit(s); ${remaining ?? 0} remain.` : '';
      return `Not enough credits to start this audit.${figures} Nothing was charged. Ask the person to add credits or wait for the monthly allowance (whoami shows the balance); do not retry until then.`;
    }
    case 'no_active_subscription':
      return 'The organization is on the Free plan, which cannot start audits. Ask the person to upgrade to a paid plan; existing reports stay readable.';
    case 'insufficient_scope': {
      const scope = detail(error, 'requiredScope');
      return `The API key lacks the ${typeof scope === 'string' ? scope : 'needed'} scope. Ask the person for a key that has it (whoami lists this key's scopes); retrying will not help.`;
    }
    case 'unauthorized':
      return 'The API key was refused. Ask the person to check SITEAUDIT_API_KEY (or the Bearer key sent to this server); retrying will not help.';
    case 'run_in_flight': {
      const runId = detail(error, 'runId');
      return typeof runId === 'string'
        ? `This project already has run ${runId} in progress. Call wait_for_run with runId "${runId}" instead of starting another.`
        : 'This project already has a run in progress. Call list_projects or wait for the running audit to finish, then try again.';
    }
    case 'project_archived':
      return 'The project is archived. Call restore_project with its projectId first if the person wants to audit it again.';
    case 'results_unavailable':
      return 'The run has no results yet (or failed). Call wait_for_run with this runId until it is completed, then read the report.';
    case 'not_found':
      return 'Nothing with that id is visible to this key. Check the id (list_projects shows projects; start_run returns run ids); ids from another organization are never visible.';
    case 'confirmation_mismatch':
      return 'Archiving needs confirm set to the project domain exactly. Ask the person to confirm and pass the domain as confirm.';
    case 'project_scoped_key':
      return 'This API key is pinned to one project and cannot act on others. Use the project whoami names, or ask the person for an organization-wide key.';
    case 'project_limit_reached':
      return "The plan's project limit is reached. Archive a project the person no longer needs (archive_project) or ask them to upgrade the plan.";
    case 'project_not_archived':
      return 'The project is not archived, so there is nothing to restore; it can be used as it is.';
    case 'invalid_domain':
      return 'The domain was refused. Pass a bare host name such as example.com (no scheme, path or port unless it is a local target).';
    case 'rate_limited': {
      const seconds = error.retryAfterSeconds;
      // The message names the limit that was reached (requests per key, rechecks per organization).
      return `A rate limit of the service was reached (the message says which). Retry this call${seconds !== undefined ? ` after ${seconds} seconds` : ' in a minute'}.`;
    }
    case 'no_baseline':
      return 'There is no earlier completed run of this project and product to compare with. Audit again after a fix (start_run), then compare_runs the new run; list_runs shows the runs there are.';
    case 'baseline_mismatch':
      return 'The baseline must be a run of the same project and product. Pick one with list_runs (filter by projectId and product), or leave baselineRunId out to take the previous run.';
    case 'service_unavailable':
      return `The service is temporarily unavailable. Retry${error.retryAfterSeconds !== undefined ? ` after ${error.retryAfterSeconds} seconds` : ' shortly'}.`;
    case 'connection_failed':
      return 'The Site Audit Service could not be reached at the address in the message. Retry once; if it fails again, ask the person to check that the service is running (and SITEAUDIT_API_URL, if they set it).';
    case 'local_service_unavailable':
      return 'The local Site Audit service on this machine could not be started; the message says where its log is. Ask the person to look at that log; retry once it is fixed.';
    case 'validation_failed':
    case 'invalid_json':
      return 'The request was refused as invalid; correct the arguments as the message says and call again.';
    default:
      if (error.status === 429) return 'Too many requests: wait a minute before retrying.';
      if (error.status >= 500)
        return 'The service failed on its side; retry in a little while, and report it if it persists.';
      return 'Read the message, correct the request, and call again.';
  }
}

export function toolErrorFromApi(error: ApiClientError): CallToolResult {
  return toolError({
    code: error.code,
    ...(error.status > 0 ? { status: error.status } : {}),
    message: error.serviceMessage,
    action: adviceFor(error),
    ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
    ...(Object.keys(error.details).length > 0 ? { details: error.details } : {}),
  });
}

/**
 * A refusal of the MCP server's own (bad confirmation, declined elicitation), in the same shape.
 * `status` is the spec's status for the code where the service would answer it too (spec 7).
 */
export function toolRefusal(code: string, message: string, action: string, status?: number): CallToolResult {
  return toolError({ code, ...(status !== undefined ? { status } : {}), message, action });
}

/**
 * Everything is in the text: an error result carries no structuredContent, because hosts on the SDK 1.x
 * and the Inspector validate any structuredContent against the tool's outputSchema and would replace
 * the whole result with -32602 (MCP 2025-11-25, tools: structured content "SHOULD conform").
 * The last line repeats the fields as JSON for agents that branch on the code.
 */
function toolError(error: ToolError): CallToolResult {
  const status = error.status !== undefined ? `${error.status} ` : '';
  const { message: _message, action: _action, ...fields } = error;
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: `**Error ${status}\`${error.code}\`**: ${error.message}\n\n${error.action}\n\nerror: ${JSON.stringify(fields)}`,
      },
    ],
  };
}

export function isApiError(error: unknown): error is ApiClientError {
  return error instanceof ApiClientError;
}
