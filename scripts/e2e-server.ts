// The store the browser tests run against: fresh data every run, its own build and ports.
import { rmSync } from 'node:fs';

rmSync(process.env.DATA_DIR ?? '.data-e2e', { recursive: true, force: true });
await import('./start.ts');
