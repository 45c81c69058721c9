// Build and dev-server settings of the dashboard: a static single-page app built into ./dist (served by
// `punctual serve` at `/`), and in development a proxy of the API to a local service on :8080.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const service = 'http://127.0.0.1:8080';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
  },
  server: {
    proxy: { '/v1': service },
  },
});
