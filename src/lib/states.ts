// The states and reasons the API writes as words, without zod: forms, islands and the entities' schemas
// (src/lib/entities.ts) share them.

/** A quote's states as the API shows them ('expired' is read: answered, past its expiry). */
export const QUOTE_STATES = ['requested', 'answered', 'accepted', 'declined', 'expired'] as const;

/** Why a tool's stock moved (its ledger's rows). */
export const STOCK_REASONS = [
  'sale',
  'hold released',
  'refund restock',
  'admin restock',
  'import',
  'correction',
] as const;
