// API errors as tool errors (isError): they name the service's code and tell the model what to do next,
// so it can recover, ask the person, or stop, instead of guessing from a status line.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { ApiClientError } from '../client/index.ts';

export interface ToolErrorBody {
  error: {
    code: string;
    status: number;
    message: string;
    action: string;
    retryAfterSeconds?: number;
    details?: Record<string, unknown>;
  };
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
      return `The service's rate limit (60 requests a minute per key) was reached. Retry this call${seconds !== undefined ? ` after ${seconds} seconds` : ' in a minute'}.`;
    }
    case 'service_unavailable':
      return `The service is temporarily unavailable. Retry${error.retryAfterSeconds !== undefined ? ` after ${error.retryAfterSeconds} seconds` : ' shortly'}.`;
    case 'connection_failed':
      return 'The Site Audit Service could not be reached. Ask the person to check SITEAUDIT_API_URL and that the service is running; retry once it is.';
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
  const action = adviceFor(error);
  const body: ToolErrorBody = {
    error: {
      code: error.code,
      status: error.status,
      message: error.serviceMessage,
      action,
      ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
      ...(Object.keys(error.details).length > 0 ? { details: error.details } : {}),
    },
  };
  const status = error.status > 0 ? `${error.status} ` : '';
  return {
    isError: true,
    content: [{ type: 'text', text: `**Error ${status}\`${error.code}\`**: ${error.serviceMessage}\n\n${action}` }],
    structuredContent: body as unknown as Record<string, unknown>,
  };
}

/** A refusal of the MCP server's own (bad confirmation, declined elicitation), in the same shape. */
export function toolRefusal(code: string, message: string, action: string): CallToolResult {
  const body: ToolErrorBody = { error: { code, status: 0, message, action } };
  return {
    isError: true,
    content: [{ type: 'text', text: `**Error \`${code}\`**: ${message}\n\n${action}` }],
    structuredContent: body as unknown as Record<string, unknown>,
  };
}

export function isApiError(error: unknown): error is ApiClientError {
  return error instanceof ApiClientError;
}
