// A post's reading time, shown on /blogs and the post: words at 200 a minute, code blocks counted as
// words too (a reader goes through them), at least one minute. The collection's body has no frontmatter.
const WORDS_PER_MINUTE = 200;

export function readingMinutes(markdown: string): number {
  // A link's or an image's address is not read; its text is.
  const text = markdown.replace(/\]\([^)]*\)/g, ']');
  const words = text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)?.length ?? 0;
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}

export const readingTimeLabel = (minutes: number): string => `${minutes} min read`;
