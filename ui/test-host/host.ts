// A minimal MCP Apps host for test/mcp/report-app.test.ts, bundled at test time: the ext-apps
// AppBridge in front of a sandboxed srcdoc iframe (as hosts run views: scripts only, an opaque
// origin), passing the view's tool calls and link requests to the test through functions the test
// exposes on the page, and a theme change on demand.
import type { McpUiHostCapabilities, McpUiHostContext, McpUiStyles } from '@modelcontextprotocol/ext-apps';
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

type ToolResult = { content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> };

interface HostStart {
  html: string;
  toolName: string;
  args: Record<string, unknown>;
  result: ToolResult;
  theme: 'light' | 'dark';
  variables: Partial<McpUiStyles>;
  capabilities: McpUiHostCapabilities;
}

declare global {
  interface Window {
    startHost(start: HostStart): Promise<void>;
    setHostTheme(theme: 'light' | 'dark', variables: Partial<McpUiStyles>): Promise<void>;
    /** Exposed by the test: the real MCP client's tools/call. */
    hostCallTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<ToolResult>;
    /** Exposed by the test: records the link the view asked the host to open. */
    hostOpenLink(url: string): Promise<void>;
    /** Exposed by the test: records a message the view asked the host to send to the conversation. */
    hostMessage(message: unknown): Promise<void>;
    /** Set once the view has the tool result. */
    hostReady?: boolean;
  }
}

let bridge: AppBridge | undefined;
let context: McpUiHostContext = {};

window.startHost = async (start) => {
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.title = 'Site audit report';
  document.body.append(iframe);
  context = {
    theme: start.theme,
    styles: { variables: start.variables as McpUiStyles },
    displayMode: 'inline',
    platform: 'web',
    toolInfo: { tool: { name: start.toolName, inputSchema: { type: 'object' } } },
  };
  const host = new AppBridge(null, { name: 'siteaudit-test-host', version: '1.0.0' }, start.capabilities, {
    hostContext: context,
  });
  host.oncalltool = async (params) => (await window.hostCallTool(params)) as Awaited<ReturnType<AppBridge['callTool']>>;
  host.onopenlink = async ({ url }) => {
    await window.hostOpenLink(url);
    return {};
  };
  host.onmessage = async (message) => {
    await window.hostMessage(message);
    return {};
  };
  host.onsizechange = ({ height }) => {
    if (height !== undefined) iframe.style.height = `${height}px`;
  };
  host.oninitialized = async () => {
    await host.sendToolInput({ arguments: start.args });
    await host.sendToolResult(start.result as Parameters<AppBridge['sendToolResult']>[0]);
    window.hostReady = true;
  };
  if (!iframe.contentWindow) throw new Error('the iframe has no window');
  await host.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  bridge = host;
  iframe.srcdoc = start.html;
};

window.setHostTheme = async (theme, variables) => {
  context = { ...context, theme, styles: { variables: variables as McpUiStyles } };
  bridge?.setHostContext(context);
};
