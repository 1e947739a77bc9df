import { defineConfig } from 'vitest/config'
import { svelte } from '@sveltejs/vite-plugin-svelte'

export default defineConfig({
  // Tests run Svelte's client runtime, as the window does: the server one skips $effect.
  plugins: [svelte({ dynamicCompileOptions: () => (process.env.VITEST ? { generate: 'client' } : undefined) })],
  resolve: process.env.VITEST ? { conditions: ['browser'] } : undefined,
  ssr: process.env.VITEST ? { resolve: { conditions: ['browser'], externalConditions: ['browser'] } } : undefined,
  build: {
    // A local app: the window's scripts (sigma, graphology, markdown-it) in one bundle
    // of about 480 kB; the editor (CodeMirror, about 500 kB) loads when first used.
    chunkSizeWarningLimit: 1024,
    // Rolldown names the plugins that took most of a build's time: Svelte's compiler
    // always does, so the notice (in yellow) said nothing a newcomer could act on.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['src/test-setup.ts'],
  },
})
