// The report app's entry (issue 30): connects to the host over the MCP Apps bridge, takes the host's
// theme and style variables, and renders the tool result it is given (get_report or compare_runs,
// told apart by their shape). Bundled into one HTML file by scripts/build-report-app.ts.
import {
  App,
  applyDocumentTheme,
  applyHostStyleVariables,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps';
import { comparisonView } from './comparison-view.ts';
import { h, siteText } from './dom.ts';
import { hostActions } from './host-actions.ts';
import { reportView } from './report-view.ts';
import type { ComparisonInput, ReportInput } from './view-types.ts';

const root = document.getElementById('app') as HTMLElement;
const app = new App({ name: 'siteaudit-report', version: '1.0.0' }, {}, { autoResize: true });
const actions = hostActions(app);

function show(...nodes: Node[]): void {
  root.replaceChildren(...nodes);
}

const status = (text: string) => h('p', { class: 'status', attrs: { role: 'status' } }, text);

// Host fonts are not applied: they arrive as CSS (@font-face) that the app's hash-only policy refuses.
function applyContext(context: McpUiHostContext | undefined): void {
  if (context?.theme) applyDocumentTheme(context.theme);
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
}

type Result = { isError?: boolean; content?: { type: string; text?: string }[]; structuredContent?: unknown };

function render(result: Result): void {
  const data = result.structuredContent as Record<string, unknown> | undefined;
  if (result.isError || !data) {
    const text = result.content?.find((block) => block.type === 'text')?.text ?? 'The tool returned no result.';
    show(h('p', { class: 'notice', attrs: { role: 'alert' } }, siteText(text)));
    return;
  }
  if ('counts' in data && 'baselineRunId' in data) show(comparisonView(data as unknown as ComparisonInput, actions));
  else show(reportView(data as unknown as ReportInput, actions));
}

// Handlers first: the host sends the result as soon as the handshake ends.
app.ontoolresult = (result) => render(result as Result);
app.ontoolcancelled = () => show(status('The call was cancelled.'));
app.onhostcontextchanged = () => applyContext(app.getHostContext());
// An IIFE bundle has no top-level await.
app.connect().then(
  () => applyContext(app.getHostContext()),
  () => show(status('Could not connect to the host.')),
);
