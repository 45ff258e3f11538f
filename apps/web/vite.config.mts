/**
 * The browser app: built by scripts/build.sh into dist/apps/web, which every entry point
 * (monolith, gateway) serves at / (libs/http web-app.ts). `npx nx serve web` runs Vite's dev
 * server with /api, /app-config.json and /ops proxied to a running variant (SG_WEB_API, default
 * the monolith's http://127.0.0.1:3000).
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.SG_WEB_API ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  // Contracts shared with the server side (type:contract libs, framework-free): bundled from source.
  resolve: {
    alias: {
      '@shellgrade/trace-model': fileURLToPath(new URL('../../libs/trace-model/src/index.ts', import.meta.url)),
      '@shellgrade/console-contract': fileURLToPath(new URL('../../libs/console-contract/src/index.ts', import.meta.url)),
      '@shellgrade/stats': fileURLToPath(new URL('../../libs/stats/src/index.ts', import.meta.url)),
    },
  },
  build: { outDir: '../../dist/apps/web', emptyOutDir: true, sourcemap: false, target: 'es2022' },
  server: { proxy: { '/api': api, '/app-config.json': api, '/ops': api } },
});
