import { defineConfig } from 'vitest/config';
import { apiContracts } from './src/lib/contracts/api.ts';
import { isPublicJsonRead, routeTable } from './src/lib/contracts/route-table.ts';

const api = (name: string, db: 'pglite' | 'postgres') => ({
  test: {
    name,
    include: ['tests/api/**/*.test.ts'],
    environment: 'node',
    env: { NODE_ENV: 'test', TEST_DB: db, LOG_LEVEL: 'silent' },
    globalSetup: ['tests/api/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

export default defineConfig({
  // The browser client's table of calls, as astro.config.mjs writes it into the pages.
  define: {
    __API_ROUTES__: JSON.stringify(routeTable(apiContracts)),
    __API_PUBLIC_READS__: JSON.stringify(routeTable(apiContracts, isPublicJsonRead)),
  },
  test: {
    projects: [
      {
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', env: { LOG_LEVEL: 'silent' } },
      },
      api('api', 'pglite'),
      // The same API suite against a real PostgreSQL server when one is configured (CI sets it).
      ...(process.env.TEST_DATABASE_URL ? [api('api-pg', 'postgres')] : []),
      // A publish on a running store (real builds): `npm test` runs it as its own step.
      {
        test: {
          name: 'publish',
          include: ['tests/publish/**/*.test.ts'],
          environment: 'node',
          env: { LOG_LEVEL: 'silent' },
          testTimeout: 600_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
      // Three servers, PostgreSQL and nginx (tests/cluster): only through `npm run test:cluster`.
      {
        test: {
          name: 'cluster',
          include: ['tests/cluster/**/*.test.ts'],
          environment: 'node',
          env: { LOG_LEVEL: 'silent' },
          testTimeout: 120_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
