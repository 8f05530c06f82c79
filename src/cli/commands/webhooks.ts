// `siteaudit webhooks ...`: manage the organization's webhook endpoints and read their delivery
// logs from the terminal, and check a saved delivery's signature (docs/webhooks.md).
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { dateText, type WebhookDelivery, type WebhookEndpoint } from '../../contract/index.ts';
import { verifyWebhook, WebhookVerificationError } from '../../contract/webhook-signature.ts';
import { type ConnectionFlags, connect, withConnectionOptions, withServiceErrors } from '../connect.ts';
import { CliError } from '../options.ts';

const out = (text: string) => process.stdout.write(`${text}\n`);
const log = (line: string) => process.stderr.write(`${line}\n`);

function endpointLine(endpoint: WebhookEndpoint): string {
  const state = endpoint.active
    ? 'active'
    : `disabled${endpoint.disabledReason ? ` (${endpoint.disabledReason})` : ''}`;
  return `${endpoint.webhookId}  ${endpoint.url}  ${endpoint.events.join(',')}  ${state}${endpoint.description ? `  "${endpoint.description}"` : ''}`;
}

function deliveryLines(delivery: WebhookDelivery): string[] {
  const head = `${delivery.deliveryId}  ${delivery.eventType} ${delivery.eventId}  ${delivery.status}, ${delivery.attempts} attempt(s)${delivery.nextAttemptAt ? `, next ${dateText(delivery.nextAttemptAt)}` : ''}`;
  return [
    head,
    ...delivery.attemptLog.map(
      (a) =>
        `    ${dateText(a.attemptedAt)}  ${a.statusCode ?? '-'}  ${a.durationMs} ms${a.error ? `  ${a.error}` : ''}`,
    ),
  ];
}

export function webhooksCommand(program: Command): void {
  const webhooks = program
    .command('webhooks')
    .description('webhook endpoints: notifications when audits end (needs a key with webhooks:manage)');

  withConnectionOptions(
    webhooks
      .command('create <url>')
      .description('subscribe an https URL; prints the signing secret, shown this once')
      .option('--events <list>', 'comma-separated: run.completed, run.failed, monitoring.changed')
      .option('--description <text>', 'a note for people'),
  ).action(async (url: string, flags: ConnectionFlags & { events?: string; description?: string }) => {
    const { client } = await connect(flags, log);
    await withServiceErrors(async () => {
      const created = await client.webhooks.create({
        url,
        ...(flags.events ? { events: flags.events.split(',').map((e) => e.trim()) } : {}),
        ...(flags.description ? { description: flags.description } : {}),
      });
      if (flags.json) out(JSON.stringify(created));
      else out(`${endpointLine(created)}\nsigning secret (shown once; keep it with the receiver): ${created.secret}`);
    });
  });

  withConnectionOptions(webhooks.command('list').description('the endpoints, newest first')).action(
    async (flags: ConnectionFlags) => {
      const { client } = await connect(flags, log);
      await withServiceErrors(async () => {
        const all: WebhookEndpoint[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.webhooks.list({ limit: 100, ...(cursor ? { cursor } : {}) });
          all.push(...page.webhooks);
          cursor = page.pagination.nextCursor ?? undefined;
        } while (cursor);
        if (flags.json) out(JSON.stringify({ webhooks: all }));
        else out(all.length === 0 ? 'no webhook endpoints' : all.map(endpointLine).join('\n'));
      });
    },
  );

  withConnectionOptions(
    webhooks
      .command('deliveries <webhookId>')
      .description("an endpoint's deliveries and every attempt")
      .option('--limit <n>', 'deliveries shown', '20'),
  ).action(async (webhookId: string, flags: ConnectionFlags & { limit: string }) => {
    const { client } = await connect(flags, log);
    await withServiceErrors(async () => {
      const page = await client.webhooks.deliveries(webhookId, { limit: Number(flags.limit) });
      if (flags.json) out(JSON.stringify(page));
      else out(page.deliveries.length === 0 ? 'no deliveries yet' : page.deliveries.flatMap(deliveryLines).join('\n'));
    });
  });

  withConnectionOptions(
    webhooks.command('redeliver <webhookId> <deliveryId>').description('send a delivery again now'),
  ).action(async (webhookId: string, deliveryId: string, flags: ConnectionFlags) => {
    const { client } = await connect(flags, log);
    await withServiceErrors(async () => {
      const queued = await client.webhooks.redeliver(webhookId, deliveryId);
      out(flags.json ? JSON.stringify(queued) : `queued ${queued.deliveryId} to be sent again`);
    });
  });

  withConnectionOptions(
    webhooks.command('delete <webhookId>').description('remove an endpoint; nothing more is sent to it'),
  ).action(async (webhookId: string, flags: ConnectionFlags) => {
    const { client } = await connect(flags, log);
    await withServiceErrors(async () => {
      await client.webhooks.remove(webhookId);
      out(flags.json ? JSON.stringify({ deleted: webhookId }) : `deleted ${webhookId}`);
    });
  });

  webhooks
    .command('verify <bodyFile>')
    .description("check a saved delivery's signature (the raw body in a file) and print its event")
    .requiredOption('--signature <header>', 'the x-service-signature header as received')
    .option('--secret <secret>', 'the signing secret (or env SITEAUDIT_WEBHOOK_SECRET)')
    .option('--tolerance <seconds>', 'clock difference accepted; 0 to skip the age check for an old saved body')
    .option('--json', 'print a refusal as JSON too (the event is always JSON)')
    .action((bodyFile: string, flags: { signature: string; secret?: string; tolerance?: string }) => {
      const secret = flags.secret ?? process.env.SITEAUDIT_WEBHOOK_SECRET;
      if (!secret)
        throw new CliError('invalid_argument', 'give the signing secret with --secret or SITEAUDIT_WEBHOOK_SECRET');
      let body: Buffer;
      try {
        body = readFileSync(bodyFile);
      } catch (error) {
        throw new CliError('invalid_argument', `cannot read ${bodyFile}: ${(error as Error).message}`);
      }
      const tolerance = flags.tolerance === undefined ? undefined : Number(flags.tolerance);
      try {
        const event = verifyWebhook({
          secret,
          header: flags.signature,
          body,
          ...(tolerance === 0
            ? { toleranceSeconds: Number.MAX_SAFE_INTEGER }
            : tolerance
              ? { toleranceSeconds: tolerance }
              : {}),
        });
        out(JSON.stringify(event));
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        throw new CliError(error.code, `not verified: ${error.message}`);
      }
    });
}
