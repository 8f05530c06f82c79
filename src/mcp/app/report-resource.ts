// The report as an MCP App (issue 30; MCP Apps spec 2026-01-26): one `ui://` resource that hosts with
// Apps render get_report's and compare_runs' results in. The HTML is bundled at build time
// (`npm run build:app`, ui/report-app/), so the server needs no ext-apps package at run time; hosts
// without Apps never read it and get the same text and structuredContent as before.
import type { McpServer } from '@modelcontextprotocol/server';
import { REPORT_APP_HTML } from './report-app-html.ts';

/** The MIME type of an MCP App's HTML (spec, "UI Resource Format"). */
export const MCP_APP_MIME = 'text/html;profile=mcp-app';
/** The extension a client with Apps declares under `capabilities.extensions` (spec, capability negotiation). */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
export const REPORT_APP_URI = 'ui://siteaudit/report.html';

// The app talks to nothing but its host (postMessage): no origin to connect to or load from. With
// the lists empty a host applies the spec's restrictive default; the HTML narrows it further with
// its own hash-only policy (scripts/build-report-app.ts).
const UI_META = { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true };

export function registerReportApp(server: McpServer): void {
  server.registerResource(
    'report_app',
    REPORT_APP_URI,
    {
      title: 'Audit report view',
      description: 'The interactive view of get_report and compare_runs results, for hosts with MCP Apps.',
      mimeType: MCP_APP_MIME,
      _meta: { ui: UI_META },
      // The same HTML for every caller of this server version (2026-07-28 caching).
      cacheHint: { ttlMs: 3_600_000, cacheScope: 'public' },
    },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: MCP_APP_MIME, text: REPORT_APP_HTML, _meta: { ui: UI_META } }],
    }),
  );
}
