// `siteaudit project ...`: a project's settings. `project access` shows and sets the access settings
// of a site behind a login or a preview wall (issue 29): extra headers, basic auth and cookies that
// audits send to the site's own origin only. Values go to the service and nowhere else: nothing this
// command prints, logs or refuses with holds one (the API's refusals name headers, not values).
import type { Command } from 'commander';
import type { SiteAuditClient } from '../../client/index.ts';
import { dateText, type ProjectAccess, type ProjectAccessBody, Uuid } from '../../contract/index.ts';
import { domainOf } from '../ci/audit-runs.ts';
import { type ConnectionFlags, connect, withConnectionOptions, withServiceErrors } from '../connect.ts';
import { CliError } from '../options.ts';

const out = (text: string) => process.stdout.write(`${text}\n`);
const log = (line: string) => process.stderr.write(`${line}\n`);

interface AccessFlags extends ConnectionFlags {
  header?: string[];
  headerEnv?: string[];
  basicAuth?: string;
  passwordEnv?: string;
  cookie?: string[];
  cookieEnv?: string[];
  clear?: boolean;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

const ordinal = (n: number) => (n === 1 ? 'first' : n === 2 ? 'second' : n === 3 ? 'third' : `${n}th`);

/**
 * NAME=VALUE (or NAME=ENVVAR): split at the first '='. A malformed one is named by its place, never
 * quoted: what was typed may be the value itself.
 */
function pairsOf(option: string, given: readonly string[], right: string): Array<[string, string]> {
  return given.map((pair, i) => {
    const at = pair.indexOf('=');
    if (at <= 0)
      throw new CliError(
        'invalid_argument',
        `${option} takes NAME=${right}: the ${ordinal(i + 1)} ${option} has ${at === 0 ? 'no name before' : 'no'} '='`,
      );
    return [pair.slice(0, at), pair.slice(at + 1)];
  });
}

/**
 * The value of an environment variable named on the command line. A missing one is told by the
 * option that names it, never by the name typed: a person who mixed the options up typed the value.
 */
function fromEnv(option: string, name: string, env: NodeJS.ProcessEnv): string {
  if (name === '') throw new CliError('invalid_argument', `${option} takes the name of an environment variable`);
  const value = env[name];
  if (value === undefined)
    throw new CliError('invalid_argument', `${option}: the environment variable it names is not set`);
  if (value === '') throw new CliError('invalid_argument', `${option}: the environment variable it names is empty`);
  return value;
}

/** NAME=VALUE and NAME=ENVVAR pairs of one kind (headers or cookies) as one record; a name given twice is refused. */
function entriesOf(
  what: 'header' | 'cookie',
  direct: readonly string[],
  viaEnv: readonly string[],
  env: NodeJS.ProcessEnv,
): Record<string, string> | undefined {
  const option = `--${what}`;
  const pairs = [
    ...pairsOf(option, direct, 'VALUE'),
    ...pairsOf(`${option}-env`, viaEnv, 'ENVVAR').map(([name, variable]): [string, string] => [
      name,
      fromEnv(`${option}-env ${name}=…`, variable, env),
    ]),
  ];
  if (pairs.length === 0) return undefined;
  const entries: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, value] of pairs) {
    // Header names are case-insensitive (RFC 9110 5.1); cookie names are not (RFC 6265 4.1.1).
    const key = what === 'header' ? name.toLowerCase() : name;
    if (seen.has(key)) throw new CliError('invalid_argument', `the ${what} ${name} is given twice`);
    seen.add(key);
    Object.defineProperty(entries, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return entries;
}

/** Asks for a password on the terminal without echoing it. */
function promptHidden(question: string): Promise<string> {
  const input = process.stdin;
  return new Promise((resolve, reject) => {
    let typed: string[] = [];
    const finish = (error?: CliError) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed.join(''));
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === '\u0003' || ch === '\u0004')
          return finish(new CliError('cancelled', 'no password entered: nothing was changed'));
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else if (ch >= ' ') typed.push(ch);
      }
    };
    // No echo from the first key on: the terminal is raw before the question is asked.
    input.setEncoding('utf8');
    input.setRawMode(true);
    input.on('data', onData);
    input.resume();
    process.stderr.write(question);
  });
}

async function passwordOf(flags: AccessFlags, env: NodeJS.ProcessEnv): Promise<string> {
  if (flags.passwordEnv !== undefined) return fromEnv('--password-env', flags.passwordEnv, env);
  if (!process.stdin.isTTY)
    throw new CliError(
      'invalid_argument',
      '--basic-auth needs its password: give --password-env ENVVAR (there is no terminal to ask on)',
    );
  const password = await promptHidden('password for basic auth (not shown): ');
  if (password === '') throw new CliError('invalid_argument', 'no password entered: nothing was changed');
  return password;
}

/** The settings the flags give, {} for --clear, or undefined when they give none (show them). */
async function bodyOf(flags: AccessFlags, env: NodeJS.ProcessEnv): Promise<ProjectAccessBody | undefined> {
  const headers = entriesOf('header', flags.header ?? [], flags.headerEnv ?? [], env);
  const cookies = entriesOf('cookie', flags.cookie ?? [], flags.cookieEnv ?? [], env);
  if (flags.passwordEnv !== undefined && flags.basicAuth === undefined)
    throw new CliError('invalid_argument', '--password-env goes with --basic-auth USER');
  const setting = headers !== undefined || cookies !== undefined || flags.basicAuth !== undefined;
  if (flags.clear) {
    if (setting)
      throw new CliError(
        'invalid_argument',
        '--clear removes every setting: give it alone, or give the new settings without it (they replace the old ones)',
      );
    return {};
  }
  if (!setting) return undefined;
  return {
    ...(headers ? { headers } : {}),
    ...(flags.basicAuth !== undefined
      ? { basicAuth: { username: flags.basicAuth, password: await passwordOf(flags, env) } }
      : {}),
    ...(cookies ? { cookies } : {}),
  };
}

/** The project a target names, and how to call it; `create` makes one for a new domain (setting access does). */
async function projectOf(
  client: SiteAuditClient,
  target: string,
  create: boolean,
): Promise<{ projectId: string; label: string }> {
  if (Uuid.safeParse(target).success) return { projectId: target.toLowerCase(), label: `project ${target}` };
  const domain = domainOf(target);
  if (create) return { projectId: (await client.projects.create({ domain })).projectId, label: domain };
  let cursor: string | undefined;
  do {
    const page = await client.projects.list({ limit: 100, status: 'all', ...(cursor ? { cursor } : {}) });
    const found = page.projects.find((p) => p.domain === domain);
    if (found) return { projectId: found.projectId, label: domain };
    cursor = page.pagination.nextCursor ?? undefined;
  } while (cursor);
  throw new CliError(
    'not_found',
    `no project for ${domain}; set its access with: siteaudit project access ${domain} --header NAME=VALUE`,
  );
}

const listed = (names: readonly string[]) => (names.length === 0 ? 'none' : names.join(', '));

function accessLines(access: ProjectAccess): string[] {
  return [
    `  headers:    ${listed(access.headers)}`,
    `  basic auth: ${access.basicAuth ? 'set' : 'not set'}`,
    `  cookies:    ${listed(access.cookies)}`,
    ...(access.updatedAt ? [`  changed:    ${dateText(access.updatedAt)}`] : []),
  ];
}

const isEmpty = (access: ProjectAccess) =>
  access.headers.length === 0 && access.cookies.length === 0 && !access.basicAuth;

/** What a person reads after showing (`changed` false) or setting the settings. */
function accessText(label: string, access: ProjectAccess, changed: boolean): string {
  if (isEmpty(access))
    return changed
      ? `cleared the access settings of ${label}: audits send no extra headers, basic auth or cookies`
      : `no access settings for ${label}: audits reach it as any visitor does\nset them with --header-env NAME=ENVVAR, --basic-auth USER or --cookie-env NAME=ENVVAR (see --help)`;
  return [
    changed
      ? `replaced the access settings of ${label} (anything set before and not given now is removed):`
      : `access settings of ${label} (names only; values are never shown):`,
    ...accessLines(access),
    ...(changed ? ["audits send them to the site's own origin only; values are never shown"] : []),
  ].join('\n');
}

const HELP_AFTER = `
For a site behind a login or a preview wall (a staging deployment, a preview link): audits of the
project send these headers, this basic auth and these cookies to the site's own origin, never to
another. With no setting option, shows the names that are set; values are never shown.

Giving settings REPLACES all of the project's settings: what is not given again is removed.
Prefer --header-env, --cookie-env and --password-env (or the password prompt): the value is read
from the environment, so it stays out of your shell history and process list.

Examples:
  export PREVIEW_TOKEN=...   # from your secret store
  siteaudit project access preview.example.com --header-env x-vercel-protection-bypass=PREVIEW_TOKEN
  siteaudit project access staging.example.com --basic-auth ann      # asks for the password
  siteaudit project access staging.example.com                       # what is set
  siteaudit project access staging.example.com --clear`;

/** Commander quotes an unknown `--option=value` whole: the part after '=' could be a value. */
const withoutValues = (text: string) => text.replace(/'(--?[^'=\s]*)=[^']*'/g, "'$1=…'");

export function projectCommand(program: Command): void {
  const project = program
    .command('project')
    .description("a project's settings: access to a site behind a login or a preview wall")
    .configureOutput({ outputError: (text, write) => write(withoutValues(text)) });

  withConnectionOptions(
    project
      .command('access <project>')
      .description(
        'show or replace the headers, basic auth and cookies audits send to a site behind a login or preview wall (a domain, URL or project id)',
      )
      .option('--header <NAME=VALUE>', 'a request header (repeatable); the value is visible in shell history', collect)
      .option(
        '--header-env <NAME=ENVVAR>',
        'a request header whose value is read from the environment variable ENVVAR, out of shell history (repeatable)',
        collect,
      )
      .option('--basic-auth <user>', 'HTTP basic auth as this user; the password from --password-env, or asked for')
      .option(
        '--password-env <ENVVAR>',
        'the basic auth password, read from this environment variable (else asked for without echo on a terminal)',
      )
      .option('--cookie <NAME=VALUE>', 'a cookie (repeatable); the value is visible in shell history', collect)
      .option(
        '--cookie-env <NAME=ENVVAR>',
        'a cookie whose value is read from the environment variable ENVVAR (repeatable)',
        collect,
      )
      .option('--clear', 'remove every access setting of the project')
      .addHelpText('after', HELP_AFTER),
  ).action(async (target: string, flags: AccessFlags) => {
    // Every mistake in the flags is told before anything is sent, or a password asked for.
    const body = await bodyOf(flags, process.env);
    const { client } = await connect(flags, log);
    await withServiceErrors(async () => {
      const { projectId, label } = await projectOf(client, target, body !== undefined && Object.keys(body).length > 0);
      const access = body === undefined ? await client.access.get(projectId) : await client.access.put(projectId, body);
      out(flags.json ? JSON.stringify(access) : accessText(label, access, body !== undefined));
    });
  });
}
