import { defineConfig, type Plugin } from 'vite';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';
import { transformSync } from 'esbuild';

const outDir = path.resolve(import.meta.dirname, 'dist');

/** The widgets' pages (docs/widgets.md), web/embed/KIND.html, one entry each, served at /embed/KIND by src/web/embed.ts. */
const EMBED_KINDS = fs
  .readdirSync(path.resolve(import.meta.dirname, 'embed'))
  .filter((file) => file.endsWith('.html'))
  .map((file) => file.slice(0, -'.html'.length));

/**
 * The entries of the build: the citizens' app at /, the agents' console at /console, and each widget's page (each its
 * own first screen).
 */
const ENTRIES: Record<string, string> = {
  app: 'index.html',
  console: 'console/index.html',
  ...Object.fromEntries(EMBED_KINDS.map((kind) => [`embed-${kind}`, `embed/${kind}.html`])),
};

/** The console's first screen (login and shell) stays under 60 KiB of gzipped JavaScript; screens load on use. */
const CONSOLE_FIRST_SCREEN_MAX_GZ = 60 * 1024;
/** A widget's page loads at most 25 KiB of gzipped JavaScript on first load (docs/widgets.md). */
const EMBED_FIRST_LOAD_MAX_GZ = 25 * 1024;
/** `/widget.js`, on every page of the communes' sites: at most 3 KiB gzipped. */
const WIDGET_MAX_GZ = 3 * 1024;

/** The widgets' loader: web/widget/widget.ts as one minified classic script at /widget.js (not a module: any site's `<script>` runs it). */
function widgetLoader(): Plugin {
  return {
    name: 'collecte-widget-loader',
    apply: 'build',
    writeBundle() {
      const source = fs.readFileSync(path.resolve(import.meta.dirname, 'widget/widget.ts'), 'utf8');
      const { code } = transformSync(source, { loader: 'ts', minify: true, target: 'es2019', format: 'iife', charset: 'utf8' });
      fs.writeFileSync(path.join(outDir, 'widget.js'), code);
      const gz = gzipSync(code, { level: 9 }).length;
      console.log(`widget.js: ${(code.length / 1024).toFixed(1)} KiB (${(gz / 1024).toFixed(2)} KiB gzip)`);
      if (gz > WIDGET_MAX_GZ) throw new Error(`widget.js is ${gz} bytes gzipped, over its ${WIDGET_MAX_GZ}-byte budget`);
    },
  };
}

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
        if (name.startsWith('embed-') && gz > EMBED_FIRST_LOAD_MAX_GZ) {
          throw new Error(`the ${name} page loads ${kb(gz)} of JavaScript gzipped on first load, over its ${kb(EMBED_FIRST_LOAD_MAX_GZ)} budget`);
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
  // The loader first: the precompression of closeBundle then covers it too.
  plugins: [widgetLoader(), precompressAndReport()],
});
