import { defineConfig } from 'vitest/config'
import { svelte } from '@sveltejs/vite-plugin-svelte'

export default defineConfig({
  // Tests run Svelte's client runtime, as the window does: the server one skips $effect.
  plugins: [svelte({ dynamicCompileOptions: () => (process.env.VITEST ? { generate: 'client' } : undefined) })],
  resolve: process.env.VITEST ? { conditions: ['browser'] } : undefined,
  ssr: process.env.VITEST ? { resolve: { conditions: ['browser'], externalConditions: ['browser'] } } : undefined,
  build: {
    // One bundle for a local app: sigma + graphology + markdown-it are about 350 kB.
    chunkSizeWarningLimit: 1024,
  },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['src/test-setup.ts'],
  },
})
