import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { buildTestApp } from '../helpers/app.ts';

/**
 * A close (SIGTERM) while a keep-alive client waits for its answer: the answer comes, then the server closes the
 * connection at once rather than after its keep-alive timeout (72 s, past most orchestrators' grace period, which
 * would kill the process before it closed its database). The test's timeout, far below 72 s, is what fails.
 */
describe('closing with keep-alive connections', () => {
  it('answers the request in flight, then closes its connection and finishes closing', { timeout: 30_000 }, async (t) => {
    const { app } = await buildTestApp(t, 'pglite');
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;

    const body = JSON.stringify({ deviceId: 'device-draining-1', challengeId: '10000000-0000-4000-8000-0000000000aa', score: 50 });
    const socket = net.connect(port, '127.0.0.1');
    t.after(() => socket.destroy());
    await new Promise((resolve) => socket.once('connect', resolve));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    const closedByServer = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    // HTTP/1.1 keeps the connection alive unless told otherwise; the body is still arriving when the close starts.
    socket.write(
      `POST /public/challenges/complete HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = app.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.write(body.slice(10));

    await Promise.all([closing, closedByServer]);
    // The challenge does not exist: a real answer from the route, not a dropped connection.
    assert.match(received, /^HTTP\/1\.1 404 /);
    assert.match(received, /"code":"challengeNotFound"|"statusCode":404/);
  });

  it('closes a connection that never asked anything (a browser’s preconnect) and finishes closing', { timeout: 30_000 }, async (t) => {
    const { app } = await buildTestApp(t, 'pglite');
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    t.after(() => socket.destroy());
    await new Promise((resolve) => socket.once('connect', resolve));
    const closedByServer = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    // Node would hold it until the socket timeout (60 s): the close would wait as long.
    await Promise.all([app.close(), closedByServer]);
    assert.equal(socket.bytesRead, 0, 'nothing was answered: nothing was asked');
  });
});
