// What one server's NOTIFY tells the others (changes.ts postgresBus): the changes announced close together,
// merged, as payloads of the form sender:kind[:names]. Knows nothing of the kinds (changes.ts does).

/**
 * A NOTIFY payload holds at most 8,000 bytes: a change naming more than this many characters' worth of
 * tools or emails is sent without the names (a tool id and its comma are 25: 240 tools fit).
 */
const MAX_NAMES_LENGTH = 6000;
/**
 * Changes announced close together, merged: each kind once, a stock or users change naming the union of
 * its tools or emails (or none: any may have changed). A NOTIFY per order was a statement, a commit and
 * a wake-up of every server's listener each (issue 30: ~2 per order placed and deleted).
 */
export function pendingChanges<Kind extends string>(namedKinds: ReadonlySet<Kind>) {
  /** Per kind announced: the names announced with it, or undefined when one of its changes named none. */
  const kinds = new Map<Kind, Set<string> | undefined>();
  return {
    /** `named`: what the change touched, kept only for `namedKinds`. */
    add(change: Kind, named?: readonly string[]) {
      const had = kinds.get(change);
      if (!namedKinds.has(change) || !named?.length) return void kinds.set(change, undefined);
      if (!kinds.has(change)) kinds.set(change, new Set(named));
      else if (had) for (const name of named) had.add(name);
    },
    get empty() {
      return kinds.size === 0;
    },
    /**
     * The payloads to send (sender:kind[:names]). Each name is URI-encoded: tool ids are hex, but an email
     * may hold ':' or ',' in a quoted part.
     */
    take(sender: string): string[] {
      const payloads = [...kinds].map(([kind, names]) => {
        const list = names && [...names].map(encodeURIComponent).join(',');
        return list && list.length <= MAX_NAMES_LENGTH ? `${sender}:${kind}:${list}` : `${sender}:${kind}`;
      });
      kinds.clear();
      return payloads;
    },
  };
}

/** The names in a payload; a list that does not decode (not one of ours) names none: all may have changed. */
export function namesIn(list: string | undefined): string[] | undefined {
  if (!list) return undefined;
  try {
    return list.split(',').map(decodeURIComponent);
  } catch {
    return undefined;
  }
}
