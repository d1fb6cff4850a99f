import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IntakePayload } from '../../server/delivery/payload.ts';

// A webhook receiver on 127.0.0.1 for e2e tests: every delivery is parsed as the
// documented intake payload (a payload that does not fit fails the test loudly
// at the parse) and kept with its headers; it answers 200.

/** One delivery the receiver got. */
export interface Delivery { headers: IncomingHttpHeaders; body: IntakePayload }

/** Starts a receiver on a free port: its URL, the deliveries in arrival order, and close(). */
export async function webhookReceiver(): Promise<{ url: string; got: Delivery[]; close: () => Promise<void> }> {
  const got: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: IntakePayload.parse(JSON.parse(Buffer.concat(chunks).toString('utf8'))) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
