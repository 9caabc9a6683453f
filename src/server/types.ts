// The dependencies every feature receives (Deps), and what the outer server and the API tell each other.
// Imports only the runtime's parts and the ports (ports.ts), never a feature.
import type { Config } from './config.ts';
import type { Identity } from './auth/identity.ts';
import type { Db } from './db/client.ts';
import type { ChangeBus, Shows } from './caching/changes.ts';
import type { ImageStorage, Mailer, PaymentGateway, RateLimitStore } from './ports.ts';

/** Everything a request handler may use, injected so tests can run the app in-process. */
export interface Deps {
  db: Db;
  config: Config;
  jwtSecret: Uint8Array<ArrayBuffer>;
  identity: Identity;
  payments: PaymentGateway;
  images: ImageStorage;
  /** Rate-limit counters: in memory with PGlite, in PostgreSQL when servers share it. */
  rateLimits: RateLimitStore;
  /** Writes announce what they changed here; caches (on every server) listen. */
  changes: ChangeBus;
  now: () => Date;
  /** Where emails go instead of SMTP_URL's server (tests). */
  mailer?: Mailer;
  /** Name resolution for webhook URLs instead of DNS (tests: a public name, a name that rebinds). */
  resolveHost?: (host: string) => Promise<string[]>;
  /**
   * The user a token names, as stored now (the role usable, the Firebase account bound), or undefined:
   * the guards' check on every signed-in call. Built by createApp (users/user-rules.ts).
   */
  signedInUser: (email: string) => Promise<CurrentUser | undefined>;
  /** True while this server warms up before its first traffic (host/warm-up.ts): /api/ready says not yet. */
  warmingUp?: () => boolean;
}

/** A public read as the API answered it, for the outer server to answer again from memory (public-reads.ts). */
export interface PublicAnswer {
  /** The body as sent: UTF-8 bytes, a string, or (a list's) bytes joined when a client first asks for them. */
  body: Buffer | string | LazyBytes;
  etag: string;
  cacheControl: string;
  /** The URL this answer stands for whatever else the request carried (public-reads.ts keys copies by it). */
  key?: string;
  /** What it shows, so only a change of that makes a kept copy stale (none: any change does). */
  shows?: Shows;
  /** For a body worth compressing: the body in that encoding, made once (http/cache.ts). */
  encoded?: (encoding: Encoding) => Buffer;
  /** The encodings `encoded` makes, the one to prefer first (brotli, gzip without it). */
  offered?: readonly Encoding[];
}

/** Bytes made once, on first use, whose length is known before. */
export interface LazyBytes {
  length: number;
  bytes(): Buffer;
}

/** The content encodings the server compresses answers in. */
export type Encoding = 'br' | 'gzip';

/** What the outer server tells the API about a request. */
export interface ApiEnv {
  /** The client's address, behind TRUST_PROXY trusted proxies (rate limits, logs). */
  clientAddress?: string;
  /** Given by the outer server on reads it may answer again; the API calls it with each public answer. */
  keep?: (answer: PublicAnswer) => void;
  /** Given when tracing is on: the API tells it the route template that answered (`/api/booking/:id`). */
  route?: (template: string) => void;
}

export interface CurrentUser {
  email: string;
  name: string;
  /** The role in use: 'admin' only for an admin whose email is verified. */
  role: 'user' | 'admin';
  /** The Firebase account this session belongs to; orders it places carry it (orders.buyer_uid). */
  uid: string | null;
}

export interface AppEnv {
  Variables: { user: CurrentUser };
  Bindings: ApiEnv;
}
