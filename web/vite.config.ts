import { defineConfig, type Plugin } from 'vite';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';

const outDir = path.resolve(import.meta.dirname, 'dist');

/** The two apps of the build: the citizens' at /, the agents' console at /console (each its own first screen). */
const ENTRIES = { app: 'index.html', console: 'console/index.html' } as const;

/** The console's first screen (login and shell) stays under 60 KiB of gzipped JavaScript; screens load on use. */
const CONSOLE_FIRST_SCREEN_MAX_GZ = 60 * 1024;

/**
 * Writes .br and .gz next to each text asset so that the server sends them as they are
 * (@fastify/static preCompressed), and prints the JavaScript the first screen loads.
 */
function precompressAndReport(): Plugin {
  return {
    name: 'collecte-precompress',
    apply: 'build',
    closeBundle() {
      const files = fs.readdirSync(outDir, { recursive: true, encoding: 'utf8' });
      for (const file of files) {
        if (!/\.(js|css|html|svg|webmanifest|json)$/.test(file)) continue;
        const full = path.join(outDir, file);
        const bytes = fs.readFileSync(full);
        fs.writeFileSync(`${full}.gz`, gzipSync(bytes, { level: 9 }));
        fs.writeFileSync(`${full}.br`, brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
      }
      // The first screen of each entry loads the scripts its index.html names (entry and modulepreloads), nothing lazy.
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
      for (const [name, page] of Object.entries(ENTRIES)) {
        const html = fs.readFileSync(path.join(outDir, page), 'utf8');
        const scripts = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
        let raw = 0;
        let gz = 0;
        for (const script of scripts) {
          const bytes = fs.readFileSync(path.join(outDir, script));
          raw += bytes.length;
          gz += gzipSync(bytes, { level: 9 }).length;
        }
        console.log(`first-screen JavaScript (${name}): ${scripts.length} file(s), ${kb(raw)} (${kb(gz)} gzip)`);
        if (name === 'console' && gz > CONSOLE_FIRST_SCREEN_MAX_GZ) {
          throw new Error(`the console's first screen loads ${kb(gz)} of JavaScript gzipped, over its ${kb(CONSOLE_FIRST_SCREEN_MAX_GZ)} budget`);
        }
      }
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  publicDir: 'public',
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    assetsDir: 'assets',
    reportCompressedSize: false,
    rollupOptions: {
      input: Object.fromEntries(Object.entries(ENTRIES).map(([name, page]) => [name, path.resolve(import.meta.dirname, page)])),
    },
  },
  plugins: [precompressAndReport()],
});
