import { settingsContract } from '../../lib/contracts/settings.ts';
import { adminOnly, anyone } from '../auth/guards.ts';
import { contractRouter } from '../http/contract-router.ts';
import type { Deps } from '../types.ts';
import type { SettingsService } from './settings.service.ts';

export function settingsRoutes(deps: Deps, settings: SettingsService) {
  return (
    contractRouter(deps)
      // Anyone: what a buyer sees charged besides the goods (read fresh: a change applies at once).
      .on(settingsContract.get, anyone, () => settings.get())
      .on(settingsContract.update, adminOnly(deps), (c, { body }) => settings.update(body, c.get('user').email)).app
  );
}
