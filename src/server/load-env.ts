// Reads `.env` beside package.json into process.env, as `astro build` does (astro.config.mjs);
// variables already set win. Imported first by the entry points, before any module reads the env.
import { existsSync } from 'node:fs';

if (existsSync('.env')) process.loadEnvFile('.env');
