import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { firstPaintGuard } from './build/first-paint-guard';
import { inlineFavicon } from './build/inline-favicon';
import { precompress } from './vite-precompress';

export default defineConfig({
  plugins: [react(), firstPaintGuard(), inlineFavicon(), precompress()],
  build: {
    // The manifest lets the bench find the home route's lazy chunk.
    manifest: true,
    target: 'es2022',
    sourcemap: false,
  },
  server: {
    port: 5173,
    proxy: { '/elex': 'http://localhost:3000', '/healthz': 'http://localhost:3000' },
  },
});
