import { Hono } from 'hono';
import { settingsSchema } from '../../lib/schemas.ts';
import { adminOnly } from '../auth/guards.ts';
import { jsonBody } from '../http/validate.ts';
import type { AppEnv, Deps } from '../types.ts';
import type { SettingsService } from './settings.service.ts';

export function settingsRoutes(deps: Deps, settings: SettingsService) {
  return (
    new Hono<AppEnv>()
      // Anyone: what a buyer sees charged besides the goods (read fresh: a change applies at once).
      .get('/settings', async (c) => c.json(await settings.get()))
      .put('/settings', adminOnly(deps), async (c) => c.json(await settings.update(await jsonBody(c, settingsSchema), c.get('user').email)))
  );
}
