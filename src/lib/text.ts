/** The first `max` characters of a text, cut at a word and marked with an ellipsis when cut. */
export function excerpt(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const atWord = cut.slice(0, cut.lastIndexOf(' ')).trimEnd();
  return `${atWord.length > max / 2 ? atWord : cut.trimEnd()}…`;
}

/** The path without its trailing slashes ('/' stays '/'), in one pass (/\/+$/ retries at every slash of a run). */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  return end === path.length ? path : path.slice(0, end);
}
