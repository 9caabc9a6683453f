// `npm run content:check`: every post, footer page and the portfolio checked as a build would (one line
// per problem: file:line field: what is wrong). Exits 1 when there is any.
import { checkContent, formatProblem } from './lib/content-check.ts';
import { exitWithUsageIfAsked } from './lib/usage.ts';

exitWithUsageIfAsked(`
'npm run content:check': checks every post, footer page and the portfolio as a build would, one line per
problem (file:line field: what is wrong). Exits 1 when there is any.
`);

const problems = checkContent(process.cwd());
for (const problem of problems) console.error(formatProblem(problem));
if (problems.length) {
  console.error(
    `${problems.length} problem${problems.length === 1 ? '' : 's'} in the content: fix ${problems.length === 1 ? 'it' : 'them'} before publishing.`,
  );
  process.exit(1);
}
console.log('content: every post, page and the portfolio are fine.');
