// `npm run bundle`: the MCP Bundle (.mcpb) for one-click install in Claude Desktop. It stages the
// built package with its production dependencies, writes manifest.json (manifest 0.3: the server
// runs on the host's Node with `siteaudit mcp`; the embedded default unless the person sets a
// deployment in the extension's settings), validates it and packs build/siteaudit-<version>.mcpb.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOOLS } from '../tools/index.ts';

const ROOT = join(import.meta.dirname, '..');
const BUILD = join(ROOT, 'build');
const STAGE = join(BUILD, 'bundle');
const MCPB = join(ROOT, 'node_modules', '.bin', 'mcpb');

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  description: string;
  license: string;
  engines: { node: string };
};

export function manifest() {
  return {
    manifest_version: '0.3',
    name: pkg.name,
    display_name: 'Site Audit',
    version: pkg.version,
    description: pkg.description,
    long_description:
      'Audits websites for AI readiness, marketing signal and security, and gives an agent the reports, findings and fixes. With no settings it runs a local Site Audit service on this computer (data under ~/.local/share/siteaudit); set an API address and key to use a deployment instead.',
    author: { name: 'siteaudit' },
    license: pkg.license,
    keywords: ['audit', 'seo', 'security', 'ai-readiness', 'llms.txt'],
    server: {
      type: 'node',
      entry_point: 'bin/siteaudit.js',
      // The host fills ${__dirname} and ${user_config.*} (MCPB manifest 0.3, mcp_config).
      mcp_config: {
        command: 'node',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder of the manifest, not of JavaScript.
        args: ['${__dirname}/bin/siteaudit.js', 'mcp'],
        env: {
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder of the manifest.
          SITEAUDIT_API_URL: '${user_config.api_url}',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder of the manifest.
          SITEAUDIT_API_KEY: '${user_config.api_key}',
        },
      },
    },
    tools: TOOLS.map((tool) => ({ name: tool.name, description: tool.description })),
    prompts_generated: true,
    user_config: {
      api_url: {
        type: 'string',
        title: 'Site Audit API address',
        description: 'A deployment such as https://audit.example.com; leave empty to use the local service.',
        required: false,
        default: '',
      },
      api_key: {
        type: 'string',
        title: 'Site Audit API key',
        description: 'An API key (svc_...) of that deployment; leave empty for the local service.',
        required: false,
        sensitive: true,
        default: '',
      },
    },
    compatibility: {
      platforms: ['darwin', 'win32', 'linux'],
      runtimes: { node: pkg.engines.node },
    },
  };
}

function run(command: string, args: string[], cwd = ROOT): void {
  execFileSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
}

export function buildBundle(): string {
  rmSync(STAGE, { recursive: true, force: true });
  mkdirSync(STAGE, { recursive: true });
  for (const path of [
    'bin',
    'dist/src',
    'dist/tools',
    'dist/prompts',
    'package.json',
    'package-lock.json',
    'README.md',
  ])
    cpSync(join(ROOT, path), join(STAGE, path), { recursive: true });
  // Production dependencies only, exactly as locked; no install scripts run.
  run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], STAGE);
  writeFileSync(join(STAGE, 'manifest.json'), `${JSON.stringify(manifest(), null, 2)}\n`);
  run(MCPB, ['validate', join(STAGE, 'manifest.json')]);
  const output = join(BUILD, `${pkg.name}-${pkg.version}.mcpb`);
  rmSync(output, { force: true });
  run(MCPB, ['pack', STAGE, output]);
  return output;
}

if (import.meta.main) {
  const output = buildBundle();
  process.stdout.write(`${output} (${(statSync(output).size / 1024 / 1024).toFixed(1)} MiB)\n`);
}
