import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, testConfig } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ConfigError } from '../../src/config.ts';

/** Short timeouts, so that a slow client is cut off within a second. */
const env = { HEADERS_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '600' };
/** The test gives up (and fails) if the server still holds the connection after this long. */
const GIVE_UP_MS = 8000;

async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

/**
 * Opens a raw connection, sends `head`, then one more byte of `drip` every 50 ms, for as long as the server
 * keeps the connection open. Answers whether the server closed it, and what it sent.
 */
function slowClient(port: number, head: string, drip: string): Promise<{ closedByServer: boolean; received: string; dripped: number }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let dripped = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = (closedByServer: boolean) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ closedByServer, received, dripped });
    };
    const giveUp = setTimeout(() => finish(false), GIVE_UP_MS);
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('close', () => finish(true));
    socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' || err.code === 'EPIPE' ? finish(true) : reject(err)));
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (!socket.writable) return;
        socket.write(drip[dripped % drip.length]);
        dripped += 1;
      }, 50);
    });
  });
}

describe('timeout configuration', () => {
  it('has sensible defaults and refuses a header timeout longer than the request timeout', () => {
    const config = testConfig();
    assert.equal(config.headersTimeoutMs, 10_000);
    assert.equal(config.requestTimeoutMs, 30_000);
    assert.throws(() => testConfig({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '1000' }), ConfigError);
    assert.throws(() => testConfig({ HEADERS_TIMEOUT_MS: '10' }), ConfigError);
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`slow clients over real HTTP (${kind})`, () => {
    it('cuts off a client that trickles its headers byte by byte (slow loris) with 408', async (t) => {
      const { app } = await buildTestApp(t, kind, { env });
      const port = await listen(app);
      const result = await slowClient(port, 'GET /public/city-groups HTTP/1.1\r\nHost: localhost\r\nX-Slow: ', 'abcdefghij');
      assert.ok(result.closedByServer, `still connected after ${GIVE_UP_MS} ms (${result.dripped} bytes dripped)`);
      assert.match(result.received, /^HTTP\/1\.1 408 /);
    });

    it('cuts off a client that trickles its body with 408', async (t) => {
      const { app } = await buildTestApp(t, kind, { env });
      const port = await listen(app);
      const head =
        'POST /public/challenges/complete HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"deviceId":"';
      const result = await slowClient(port, head, 'abcdefghij');
      assert.ok(result.closedByServer, `still connected after ${GIVE_UP_MS} ms (${result.dripped} bytes dripped)`);
      assert.match(result.received, /^HTTP\/1\.1 408 /);
    });

    it('serves an ordinary client on the same settings', async (t) => {
      const { app } = await buildTestApp(t, kind, { env });
      const port = await listen(app);
      const res = await fetch(`http://127.0.0.1:${port}/public/city-groups`);
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), []);
    });
  });
}
