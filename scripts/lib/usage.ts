/**
 * Prints a script's usage and exits when it is run with --help or -h, before it opens or starts anything
 * (tests/unit/npm-scripts.test.ts runs every `npm run` script that way).
 */
export function exitWithUsageIfAsked(usage: string): void {
  if (!process.argv.slice(2).some((arg) => arg === '--help' || arg === '-h')) return;
  console.log(usage.trim());
  process.exit(0);
}
