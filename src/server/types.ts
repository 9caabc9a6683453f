import type { Config } from './config';
import type { Identity } from './auth/identity';
import type { Db } from './db/client';
import type { ImageStore } from './images/image-store';
import type { PaymentGateway } from './payments/gateway';
import type { ApiEnv } from './runtime';

/** Everything a request handler may use, injected so tests can run the app in-process. */
export interface Deps {
  db: Db;
  config: Config;
  jwtSecret: Uint8Array;
  identity: Identity;
  payments: PaymentGateway;
  images: ImageStore;
  now: () => Date;
}

export interface CurrentUser {
  email: string;
  name: string;
  role: 'user' | 'admin';
}

export interface AppEnv {
  Variables: { user: CurrentUser };
  Bindings: ApiEnv;
}
