// The hostile site on a thread of its own (see startHostileSiteApart): it answers where it was told
// what it is (the DNS server's address, the sites' ports, the CA) and, asked, which paths it served.
import { parentPort } from 'node:worker_threads';
import { startHostileSite } from './hostile-site.ts';

const hostile = await startHostileSite();
parentPort?.on('message', async (message: 'requests' | 'close') => {
  if (message === 'requests') parentPort?.postMessage({ requests: hostile.sites.requests });
  else {
    await hostile.close();
    parentPort?.postMessage({ closed: true });
    parentPort?.close();
  }
});
parentPort?.postMessage({ dns: hostile.dns.address, ports: hostile.sites.ports, ca: hostile.ca.caPem });
