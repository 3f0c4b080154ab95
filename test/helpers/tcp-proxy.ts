import net from 'node:net';

/**
 * A TCP proxy the test controls, between the service and a real server (PostgreSQL, Redis), to inject the faults
 * of a network or a server without touching the shared servers other test files use:
 * - `freeze()`: a black hole. Nothing is forwarded either way and new connections are accepted but never reach the
 *   server, as when a server stalls or a route to it is lost; `resume()` lets everything through again.
 * - `cut()`: every connection is reset, and new ones are refused until `resume()`, as in a restart.
 */
export interface TcpProxy {
  port: number;
  freeze(): void;
  cut(): void;
  resume(): void;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  server: net.Socket | null;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: 'open' | 'frozen' | 'cut' = 'open';
  const pairs = new Set<Pair>();
  /** Connections accepted while frozen, connected to the server on resume. */
  const held: Pair[] = [];

  const connect = (pair: Pair) => {
    const server = net.connect(target.port, target.host);
    pair.server = server;
    pair.client.pipe(server);
    server.pipe(pair.client);
    const drop = () => {
      pair.client.destroy();
      server.destroy();
      pairs.delete(pair);
    };
    server.on('error', drop);
    server.on('close', drop);
    pair.client.on('close', drop);
  };

  const proxy = net.createServer((client) => {
    client.on('error', () => client.destroy());
    if (mode === 'cut') {
      client.resetAndDestroy();
      return;
    }
    const pair: Pair = { client, server: null };
    pairs.add(pair);
    if (mode === 'frozen') {
      client.pause();
      held.push(pair);
    } else {
      connect(pair);
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as net.AddressInfo;

  const setPaused = (paused: boolean) => {
    for (const { client, server } of pairs) {
      for (const socket of [client, server]) {
        if (!socket) continue;
        // Unpiped while frozen, so that buffered bytes wait rather than flow.
        if (paused) socket.pause();
        else socket.resume();
      }
    }
  };

  return {
    port,
    freeze() {
      mode = 'frozen';
      for (const { client, server } of pairs) {
        if (server) {
          client.unpipe(server);
          server.unpipe(client);
        }
      }
      setPaused(true);
    },
    cut() {
      mode = 'cut';
      for (const pair of pairs) {
        pair.client.resetAndDestroy();
        pair.server?.destroy();
      }
      pairs.clear();
      held.length = 0;
    },
    resume() {
      const wasFrozen = mode === 'frozen';
      mode = 'open';
      if (!wasFrozen) return;
      for (const { client, server } of pairs) {
        if (server) {
          client.pipe(server);
          server.pipe(client);
        }
      }
      setPaused(false);
      for (const pair of held.splice(0)) {
        pair.client.resume();
        connect(pair);
      }
    },
    async close() {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.server?.destroy();
      }
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
