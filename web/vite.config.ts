import { defineConfig, type Plugin } from 'vite';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';

const outDir = path.resolve(import.meta.dirname, 'dist');

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
      // The first screen loads the scripts index.html names (entry and modulepreloads), nothing lazy.
      const html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
      const scripts = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
      let raw = 0;
      let gz = 0;
      for (const script of scripts) {
        const bytes = fs.readFileSync(path.join(outDir, script));
        raw += bytes.length;
        gz += gzipSync(bytes, { level: 9 }).length;
      }
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
      console.log(`first-screen JavaScript: ${scripts.length} file(s), ${kb(raw)} (${kb(gz)} gzip)`);
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
  },
  plugins: [precompressAndReport()],
});
