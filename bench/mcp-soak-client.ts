// One process of the soak benchmark's clients: a client per key given, of alternating protocol eras,
// each calling whoami `calls` times over streamable HTTP; prints one line of calls done and errors.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url, keyList, calls] = process.argv.slice(2) as [string, string, string];
const keys = keyList.split(',');
let done = 0;
let errors = 0;
await Promise.all(
  keys.map(async (key, index) => {
    const era = index % 2 === 0 ? '2026-07-28' : '2025-11-25';
    const client = new Client(
      { name: 'siteaudit-soak', version: '1.0.0' },
      era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
    );
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    });
    await client.connect(transport);
    for (let i = 0; i < Number(calls); i++) {
      const result = await client.callTool({ name: 'whoami', arguments: {} }).catch(() => ({ isError: true }));
      if (result.isError) errors++;
      else done++;
    }
    if (transport.sessionId) await transport.terminateSession().catch(() => {});
    await client.close();
  }),
);
process.stdout.write(`${JSON.stringify({ done, errors })}\n`);
process.exit(0);
