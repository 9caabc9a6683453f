// The schema, as ordered migrations. Append new ones; never edit one that has shipped.
// Migrations 7 and 11: one line per existing order. Slot 7 first shipped as a placeholder, so a database
// migrated then has it recorded without these tables; 11 runs the same text again for those. Each statement
// is a no-op where it ran before, so a new database runs it twice to the same end. (7 shipped first without
// the IF NOT EXISTS guards; where it ran, it is never run again, and on a new database the guarded text ends
// the same, so giving 7 this text is the one edit of a shipped migration that changes nothing.)
const orderLines = `
  -- An order's lines are the truth for stock and money: each keeps the name, unit price and stock_version
  -- it was placed at. The orders row keeps the spec's summary (a one-line order's tool, name, unit price
  -- and quantity; for several lines no tool, "N tools", the total and all units) and the total to pay.
  CREATE TABLE IF NOT EXISTS order_items (
    order_id          text NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
    line              integer NOT NULL,
    tool_id           text REFERENCES tools(id) ON DELETE SET NULL,
    product_name      text NOT NULL,
    unit_price_cents  integer NOT NULL CHECK (unit_price_cents > 0),
    quantity          integer NOT NULL CHECK (quantity > 0),
    stock_version     integer NOT NULL DEFAULT 0,
    PRIMARY KEY (order_id, line)
  );
  CREATE INDEX IF NOT EXISTS order_items_tool_idx ON order_items (tool_id);
  -- bigint: an order placed before the $999,999.99 cap may total more than an integer holds.
  ALTER TABLE orders ADD COLUMN IF NOT EXISTS total_cents bigint;
  UPDATE orders SET total_cents = unit_price_cents::bigint * quantity WHERE total_cents IS NULL;
  ALTER TABLE orders ALTER COLUMN total_cents SET NOT NULL;
  INSERT INTO order_items (order_id, line, tool_id, product_name, unit_price_cents, quantity, stock_version)
    SELECT id, 1, tool_id, product_name, unit_price_cents, quantity, stock_version FROM orders o
    WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id);
  `;

export const migrations: string[] = [
  /* 1: initial schema */ `
  CREATE TABLE users (
    email          text PRIMARY KEY,
    firebase_uid   text,
    name           text NOT NULL DEFAULT '',
    education      text NOT NULL DEFAULT '',
    social         text NOT NULL DEFAULT '',
    phone_number   text NOT NULL DEFAULT '',
    address        text NOT NULL DEFAULT '',
    role           text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
    sign_up_date   timestamptz NOT NULL DEFAULT now()
  );

  CREATE TABLE tools (
    id                      text PRIMARY KEY,
    seq                     integer GENERATED ALWAYS AS IDENTITY UNIQUE,
    name                    text NOT NULL,
    description             text NOT NULL,
    img                     text NOT NULL,
    price_cents             integer NOT NULL CHECK (price_cents > 0),
    minimum_order_quantity  integer NOT NULL CHECK (minimum_order_quantity >= 1),
    available_quantity      integer NOT NULL CHECK (available_quantity >= 0),
    created_at              timestamptz NOT NULL DEFAULT now()
  );

  -- Orders keep the product name and unit price they were placed at, so deleting a tool
  -- or a user never changes or loses an order.
  CREATE TABLE orders (
    id                text PRIMARY KEY,
    seq               integer GENERATED ALWAYS AS IDENTITY UNIQUE,
    tool_id           text REFERENCES tools(id) ON DELETE SET NULL,
    product_name      text NOT NULL,
    unit_price_cents  integer NOT NULL CHECK (unit_price_cents > 0),
    quantity          integer NOT NULL CHECK (quantity > 0),
    user_name         text NOT NULL,
    email             text NOT NULL,
    address           text NOT NULL,
    phone             text NOT NULL,
    payment           text NOT NULL DEFAULT 'unpaid' CHECK (payment IN ('unpaid', 'paid', 'cancelled')),
    transaction_id    text,
    shipping_status   text NOT NULL DEFAULT 'pending' CHECK (shipping_status IN ('pending', 'shipped')),
    cancel_reason     text,
    created_at        timestamptz NOT NULL DEFAULT now(),
    expires_at        timestamptz NOT NULL,
    paid_at           timestamptz
  );
  CREATE INDEX orders_email_idx ON orders (email, seq DESC);
  CREATE INDEX orders_unpaid_expiry_idx ON orders (expires_at) WHERE payment = 'unpaid';

  CREATE TABLE payments (
    id             text PRIMARY KEY,
    order_id       text NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
    gateway        text NOT NULL CHECK (gateway IN ('sandbox', 'stripe')),
    amount_cents   integer NOT NULL CHECK (amount_cents > 0),
    status         text NOT NULL DEFAULT 'requires_payment_method',
    client_secret  text NOT NULL,
    last_error     text,
    created_at     timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX payments_order_idx ON payments (order_id);

  CREATE TABLE reviews (
    id          text PRIMARY KEY,
    seq         integer GENERATED ALWAYS AS IDENTITY UNIQUE,
    name        text NOT NULL,
    message     text NOT NULL,
    ratings     double precision NOT NULL CHECK (ratings >= 1 AND ratings <= 5),
    added_by    text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
  );

  CREATE TABLE contact_messages (
    id          text PRIMARY KEY,
    name        text NOT NULL,
    email       text NOT NULL,
    message     text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
  );
  `,
  /* 2: reviews get a dense ordinal, so any page of the newest-first list is an index range */ `
  -- Reviews are never deleted, so ordinal runs 1..n without gaps (1 = oldest): page p of the newest-first
  -- list is ordinals (n - p*limit - limit, n - p*limit], however deep, and the count is max(ordinal).
  -- A trigger assigns it under a lock, so concurrent inserts never share one and every insert path
  -- (API, seed, bulk SQL) gets it. Deleting reviews would need a renumbering.
  ALTER TABLE reviews ADD COLUMN ordinal integer;
  UPDATE reviews SET ordinal = ranked.n
    FROM (SELECT id, row_number() OVER (ORDER BY seq) AS n FROM reviews) AS ranked
    WHERE reviews.id = ranked.id;
  ALTER TABLE reviews ALTER COLUMN ordinal SET NOT NULL;
  CREATE UNIQUE INDEX reviews_ordinal_idx ON reviews (ordinal);
  CREATE FUNCTION reviews_next_ordinal() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.ordinal IS NULL THEN
      PERFORM pg_advisory_xact_lock(727276);
      NEW.ordinal := coalesce((SELECT max(ordinal) FROM reviews), 0) + 1;
    END IF;
    RETURN NEW;
  END $$;
  CREATE TRIGGER reviews_ordinal BEFORE INSERT ON reviews FOR EACH ROW EXECUTE FUNCTION reviews_next_ordinal();
  `,
  /* 3: uploads kept in the database, so every server sharing it can serve them */ `
  CREATE TABLE images (
    name        text PRIMARY KEY,
    type        text NOT NULL,
    bytes       bytea NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
  );
  `,
  /* 4: identity: roles need a verified email; a row and its orders belong to one Firebase account */ `
  -- Stored at each token exchange from the ID token's email_verified; a role above user is used only with it.
  ALTER TABLE users ADD COLUMN email_verified boolean NOT NULL DEFAULT false;
  -- The Firebase account that placed the order: a later account for the same email (the first one
  -- deleted, the address claimed again) neither sees nor owns it. Existing orders take their user's account.
  ALTER TABLE orders ADD COLUMN buyer_uid text;
  UPDATE orders SET buyer_uid = users.firebase_uid FROM users WHERE users.email = orders.email;
  `,
  /* 5: payments, refunds and holds */ `
  -- A payment is a record of money, kept when its order is deleted (order_id then names an order that
  -- is gone), so a charge that lands after a delete can still be matched and refunded.
  ALTER TABLE payments DROP CONSTRAINT payments_order_id_fkey;
  ALTER TABLE payments ADD COLUMN refund_id text;
  ALTER TABLE payments ADD COLUMN refunded_at timestamptz;
  -- Restocking bumps the tool's stock_version; an order gives units back on expiry or delete only when
  -- it took them from the same version, so a hold placed before a restock never adds to the new count.
  ALTER TABLE tools ADD COLUMN stock_version integer NOT NULL DEFAULT 0;
  ALTER TABLE orders ADD COLUMN stock_version integer NOT NULL DEFAULT 0;
  CREATE INDEX orders_unpaid_buyer_idx ON orders (email) WHERE payment = 'unpaid';
  `,
  /* 6: reviews moderation: hidden, never deleted (deleting would break the dense ordinal) */ `
  -- A constant default: no table rewrite even with a million reviews.
  ALTER TABLE reviews ADD COLUMN hidden boolean NOT NULL DEFAULT false;
  -- The public list reads the few hidden ordinals on every page it computes.
  CREATE INDEX reviews_hidden_idx ON reviews (ordinal) WHERE hidden;
  `,
  /* 7: orders with several lines */ orderLines,
  /* 8: paging: the dashboard lists read one index range a page, and their totals without counting */ `
  -- GET /allusers pages in list order (newest sign-up first, then email).
  CREATE INDEX users_sign_up_idx ON users (sign_up_date DESC, email);
  -- My Orders (a buyer's orders: their email and the account that placed them, newest first): a page
  -- is one range of this index and the count an index-only scan, even with 10,000 orders.
  CREATE INDEX orders_buyer_idx ON orders (email, buyer_uid, seq DESC);
  -- Counting a million orders takes ~100 ms on PGlite, so the admin's first page would miss its 50 ms:
  -- the count is kept instead, in 16 slots (total = their sum) so concurrent writers rarely share one.
  -- A row-level trigger deferred to commit adds to the slot of its connection: the slot's lock is the
  -- last one a transaction takes, and held only through its commit, so it can neither deadlock with
  -- the stock and order locks taken before nor hold a buyer's transaction up for long. Bulk loads
  -- (the bench) may disable the trigger and write the count themselves.
  CREATE TABLE row_counts (
    name  text NOT NULL,
    slot  integer NOT NULL,
    n     bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (name, slot)
  );
  INSERT INTO row_counts (name, slot, n)
    SELECT 'orders', s, CASE WHEN s = 0 THEN (SELECT count(*) FROM orders) ELSE 0 END FROM generate_series(0, 15) AS s;
  CREATE FUNCTION orders_count_row() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE row_counts SET n = n + CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END
      WHERE name = 'orders' AND slot = pg_backend_pid() % 16;
    RETURN NULL;
  END $$;
  CREATE CONSTRAINT TRIGGER orders_counted AFTER INSERT OR DELETE ON orders
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION orders_count_row();
  CREATE FUNCTION orders_count_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE row_counts SET n = 0 WHERE name = 'orders';
    RETURN NULL;
  END $$;
  CREATE TRIGGER orders_count_truncated AFTER TRUNCATE ON orders FOR EACH STATEMENT EXECUTE FUNCTION orders_count_truncate();
  `,
  /* 9: unused (was reserved; applied as a no-op, so it stays one: append new migrations) */ `SELECT 1;`,
  /* 10: unused (was reserved; applied as a no-op, so it stays one: append new migrations) */ `SELECT 1;`,
  /* 11: orders with several lines, again, for databases that recorded slot 7 while it was reserved */ orderLines,
  /* 12: the rate-limit counters every server shares (used on PostgreSQL), made here under the migration lock */ `
  -- The rate-limit store used to create this table itself as a server started, outside the lock: servers
  -- starting together raced, and PostgreSQL failed all but one (duplicate key in pg_type). Same table as before.
  CREATE TABLE IF NOT EXISTS rate_limits (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint);
  `,
  /* 13: a user's reviews, for their data export and account deletion */ `
  -- GET /account/export pages a user's reviews and DELETE /account strips their email from them: one
  -- index range each, not a scan of every review.
  CREATE INDEX IF NOT EXISTS reviews_added_by_idx ON reviews (added_by, seq);
  `,
  /* 14: domain events and their deliveries (the outbox), the emails they send, invoices and credit notes */ `
  -- An event is written in the same transaction as the change it describes, with one delivery row per
  -- consumer of its type; the outbox worker leases due rows (FOR UPDATE SKIP LOCKED), so with several
  -- servers each is handled once. Append-only: the order history and the audit log read it.
  CREATE TABLE IF NOT EXISTS events (
    seq      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    type     text NOT NULL,
    subject  text NOT NULL,
    actor    text,
    data     jsonb NOT NULL DEFAULT '{}',
    at       timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX IF NOT EXISTS events_subject_idx ON events (subject, seq);
  CREATE INDEX IF NOT EXISTS events_type_idx ON events (type, seq);
  CREATE TABLE IF NOT EXISTS event_deliveries (
    event_seq    bigint NOT NULL REFERENCES events (seq),
    consumer     text NOT NULL,
    state        text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done')),
    attempts     integer NOT NULL DEFAULT 0,
    next_at      timestamptz NOT NULL DEFAULT now(),
    lease_until  timestamptz,
    last_error   text,
    done_at      timestamptz,
    PRIMARY KEY (event_seq, consumer)
  );
  CREATE INDEX IF NOT EXISTS event_deliveries_due_idx ON event_deliveries (consumer, next_at) WHERE state = 'pending';

  -- Every email the store makes: one per event, kind and recipient, sent through SMTP or kept for the
  -- admin's Emails screen (no SMTP_URL). Attachments are named, rendered when sent.
  CREATE TABLE IF NOT EXISTS emails (
    seq          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id           text NOT NULL UNIQUE,
    event_seq    bigint REFERENCES events (seq),
    kind         text NOT NULL,
    recipient    text NOT NULL,
    subject      text NOT NULL,
    text_body    text NOT NULL,
    html_body    text NOT NULL,
    attachments  jsonb NOT NULL DEFAULT '[]',
    state        text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'kept', 'failed')),
    attempts     integer NOT NULL DEFAULT 0,
    last_error   text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    sent_at      timestamptz,
    UNIQUE (event_seq, kind, recipient)
  );

  -- Invoices and credit notes: numbered per series and year with no gaps (the number is taken in the
  -- payment's or the refund's transaction), each kept with what it says, as issued.
  CREATE TABLE IF NOT EXISTS invoice_series (series text PRIMARY KEY, last integer NOT NULL);
  CREATE TABLE IF NOT EXISTS invoices (
    number      text PRIMARY KEY,
    kind        text NOT NULL CHECK (kind IN ('invoice', 'credit note')),
    order_id    text NOT NULL,
    amount_cents bigint NOT NULL CHECK (amount_cents > 0),
    issued_at   timestamptz NOT NULL DEFAULT now(),
    document    jsonb NOT NULL
  );
  CREATE INDEX IF NOT EXISTS invoices_order_idx ON invoices (order_id, issued_at);
  `,
  /* 15: reviews of one tool, by its buyers */ `
  -- The tool a review is about (null: the spec's general reviews), and whether its author had a paid order
  -- for that tool when posting (decided by the server; general reviews never are). Constant defaults: no
  -- table rewrite. A deleted tool's reviews stay, as general ones (its page is gone).
  ALTER TABLE reviews ADD COLUMN IF NOT EXISTS tool_id text REFERENCES tools(id) ON DELETE SET NULL;
  ALTER TABLE reviews ADD COLUMN IF NOT EXISTS verified boolean NOT NULL DEFAULT false;
  -- A tool's page of reviews, newest first, is one range of this index after a cursor (hidden ones, few,
  -- skipped on the way); its count and average are an index-only scan of the same range. It also finds
  -- the rows a tool's delete sets to null.
  CREATE INDEX IF NOT EXISTS reviews_tool_idx ON reviews (tool_id, ordinal DESC) INCLUDE (ratings, hidden) WHERE tool_id IS NOT NULL;
  -- One review per author per tool, hidden or not (a second one is a 409). Only rows that still name
  -- their author by email: a review kept under its name only (its author's account deleted) holds no claim.
  CREATE UNIQUE INDEX IF NOT EXISTS reviews_tool_author_idx ON reviews (tool_id, added_by) WHERE tool_id IS NOT NULL AND position('@' in added_by) > 0;
  `,
  /* 16: shipping with a carrier and tracking number, and delivery */ `
  -- A paid order goes pending → shipped (carrier, tracking number) → delivered; each step keeps its time.
  -- Nullable columns with no default: no table rewrite.
  ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_shipping_status_check;
  ALTER TABLE orders ADD CONSTRAINT orders_shipping_status_check CHECK (shipping_status IN ('pending', 'shipped', 'delivered'));
  ALTER TABLE orders ADD COLUMN IF NOT EXISTS carrier text;
  ALTER TABLE orders ADD COLUMN IF NOT EXISTS tracking_number text;
  ALTER TABLE orders ADD COLUMN IF NOT EXISTS shipped_at timestamptz;
  ALTER TABLE orders ADD COLUMN IF NOT EXISTS delivered_at timestamptz;
  `,
  /* 17: an admin's refunds of paid orders, whole or in part, each with its credit note */ `
  -- A refund is written pending before the provider is asked (so two at once cannot both pass), then done
  -- with the provider's id and the credit note, or failed with the error. The order keeps how much of it
  -- was given back and whether its units went back to stock (once). Constant defaults: no table rewrite.
  ALTER TABLE orders ADD COLUMN IF NOT EXISTS refunded_cents bigint NOT NULL DEFAULT 0;
  ALTER TABLE orders ADD COLUMN IF NOT EXISTS restocked boolean NOT NULL DEFAULT false;
  CREATE TABLE IF NOT EXISTS refunds (
    id                  text PRIMARY KEY,
    order_id            text NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
    payment_id          text NOT NULL,
    amount_cents        bigint NOT NULL CHECK (amount_cents > 0),
    restock             boolean NOT NULL,
    state               text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'failed')),
    provider_refund_id  text,
    credit_note         text,
    last_error          text,
    by_email            text NOT NULL,
    created_at          timestamptz NOT NULL DEFAULT now(),
    done_at             timestamptz
  );
  CREATE INDEX IF NOT EXISTS refunds_order_idx ON refunds (order_id, created_at);
  `,
  /* 18: the contact inbox (read or unread, newest first) and the audit log's index */ `
  -- Messages in the order they came (seq; existing rows get numbers in table order) and whether an admin
  -- has read them. The Messages screen pages newest first on seq; the unread count reads a partial index.
  ALTER TABLE contact_messages ADD COLUMN IF NOT EXISTS seq bigint GENERATED ALWAYS AS IDENTITY;
  ALTER TABLE contact_messages ADD COLUMN IF NOT EXISTS is_read boolean NOT NULL DEFAULT false;
  CREATE UNIQUE INDEX IF NOT EXISTS contact_messages_seq_idx ON contact_messages (seq);
  CREATE INDEX IF NOT EXISTS contact_messages_unread_idx ON contact_messages (seq) WHERE NOT is_read;
  -- The audit log: events by an admin (an actor) of the admin-action types (src/lib/audit.ts
  -- AUDIT_ACTIONS; audit.service.ts asks with the same list, so its pages and count read this index).
  CREATE INDEX IF NOT EXISTS events_audit_idx ON events (seq) WHERE actor IS NOT NULL AND type IN (
    'user.made_admin', 'user.deleted', 'tool.added', 'tool.deleted', 'tool.restocked', 'review.hidden',
    'review.shown', 'order.shipped', 'order.delivered', 'order.refunded');
  `,
  /* 19: the trade: price breaks, pack sizes, quotes, low-stock levels and the stock ledger */ `
  -- Price breaks in cents ([{"minQuantity": 100, "priceCents": 1120}], ascending), checked by the tool
  -- schema; a whole-pack quantity; the quantity above which a buyer asks for a quote; the tool's own
  -- low-stock level (null: LOW_STOCK_UNITS or the minimum order x 2). Constant defaults: no table rewrite.
  ALTER TABLE tools ADD COLUMN IF NOT EXISTS price_breaks jsonb NOT NULL DEFAULT '[]';
  ALTER TABLE tools ADD COLUMN IF NOT EXISTS pack_size integer NOT NULL DEFAULT 1 CHECK (pack_size >= 1);
  ALTER TABLE tools ADD COLUMN IF NOT EXISTS quote_above integer CHECK (quote_above >= 1);
  ALTER TABLE tools ADD COLUMN IF NOT EXISTS low_stock_units integer CHECK (low_stock_units >= 0);
  -- Every change of a tool's units for sale, written in the transaction of the change; balance is the
  -- units after it, so the newest row of a tool always equals tools.available_quantity.
  CREATE TABLE IF NOT EXISTS stock_ledger (
    seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tool_id    text NOT NULL REFERENCES tools(id) ON DELETE CASCADE,
    delta      integer NOT NULL,
    reason     text NOT NULL CHECK (reason IN ('sale', 'hold released', 'refund restock', 'admin restock', 'import', 'correction')),
    order_id   text,
    actor      text,
    at         timestamptz NOT NULL DEFAULT now(),
    balance    integer NOT NULL CHECK (balance >= 0)
  );
  CREATE INDEX IF NOT EXISTS stock_ledger_tool_idx ON stock_ledger (tool_id, seq DESC);
  -- The units already there open each tool's ledger.
  INSERT INTO stock_ledger (tool_id, delta, reason, balance)
    SELECT id, available_quantity, 'correction', available_quantity FROM tools t
    WHERE available_quantity > 0 AND NOT EXISTS (SELECT 1 FROM stock_ledger l WHERE l.tool_id = t.id);
  -- Quote requests: a buyer's lines (with the list price when asked), the shop's price per line and the
  -- offer's end; accepting places one order (order_id), once.
  CREATE TABLE IF NOT EXISTS quotes (
    id           text PRIMARY KEY,
    seq          bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    email        text NOT NULL,
    buyer_uid    text,
    user_name    text NOT NULL,
    note         text NOT NULL DEFAULT '',
    state        text NOT NULL DEFAULT 'requested' CHECK (state IN ('requested', 'answered', 'accepted', 'declined')),
    answered_by  text,
    answered_at  timestamptz,
    expires_at   timestamptz,
    order_id     text,
    created_at   timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX IF NOT EXISTS quotes_email_idx ON quotes (email, seq DESC);
  CREATE TABLE IF NOT EXISTS quote_lines (
    quote_id          text NOT NULL REFERENCES quotes(id) ON DELETE CASCADE,
    line              integer NOT NULL,
    tool_id           text REFERENCES tools(id) ON DELETE SET NULL,
    product_name      text NOT NULL,
    quantity          integer NOT NULL CHECK (quantity >= 1),
    list_unit_cents   integer NOT NULL,
    quoted_unit_cents integer CHECK (quoted_unit_cents > 0),
    PRIMARY KEY (quote_id, line)
  );
  CREATE INDEX IF NOT EXISTS quotes_order_idx ON quotes (order_id) WHERE order_id IS NOT NULL;
  -- The audit log's index again, with the trade's admin actions (src/lib/audit.ts AUDIT_ACTIONS).
  DROP INDEX IF EXISTS events_audit_idx;
  CREATE INDEX IF NOT EXISTS events_audit_idx ON events (seq) WHERE actor IS NOT NULL AND type IN (
    'user.made_admin', 'user.deleted', 'tool.added', 'tool.deleted', 'tool.restocked', 'tool.updated', 'tools.imported',
    'quote.answered', 'settings.updated', 'discount.created', 'discount.removed', 'review.hidden', 'review.shown',
    'order.shipped', 'order.delivered', 'order.refunded');
  `,
  /* 20: checkout totals: the shop's settings, discount codes and each order's breakdown */ `
  -- One row of settings; money in cents, the VAT rate in hundredths of a percent (1500 = 15%).
  CREATE TABLE IF NOT EXISTS shop_settings (
    id                        integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    delivery_flat_cents       integer NOT NULL DEFAULT 0 CHECK (delivery_flat_cents >= 0),
    free_delivery_over_cents  integer CHECK (free_delivery_over_cents >= 0),
    vat_rate_hundredths       integer NOT NULL DEFAULT 0 CHECK (vat_rate_hundredths BETWEEN 0 AND 10000),
    prices_include_vat        boolean NOT NULL DEFAULT false,
    updated_at                timestamptz NOT NULL DEFAULT now()
  );
  INSERT INTO shop_settings (id) VALUES (1) ON CONFLICT (id) DO NOTHING;
  -- Discount codes (stored upper case: codes are case-insensitive and unique). A use is a row per order,
  -- made under the code's row lock, so max_uses holds under any concurrency; deleting an unpaid order
  -- deletes its use (cascade) and a hold that runs out deletes it too.
  CREATE TABLE IF NOT EXISTS discounts (
    id                      text PRIMARY KEY,
    seq                     bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    code                    text NOT NULL UNIQUE,
    percent_off_hundredths  integer CHECK (percent_off_hundredths BETWEEN 1 AND 10000),
    amount_off_cents        integer CHECK (amount_off_cents > 0),
    min_subtotal_cents      integer CHECK (min_subtotal_cents >= 0),
    starts_at               timestamptz,
    expires_at              timestamptz,
    max_uses                integer CHECK (max_uses >= 1),
    once_per_customer       boolean NOT NULL DEFAULT false,
    disabled                boolean NOT NULL DEFAULT false,
    created_by              text NOT NULL,
    created_at              timestamptz NOT NULL DEFAULT now(),
    CHECK ((percent_off_hundredths IS NULL) <> (amount_off_cents IS NULL))
  );
  CREATE TABLE IF NOT EXISTS discount_uses (
    discount_id  text NOT NULL REFERENCES discounts(id) ON DELETE CASCADE,
    order_id     text NOT NULL UNIQUE REFERENCES orders(id) ON DELETE CASCADE,
    email        text NOT NULL,
    at           timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX IF NOT EXISTS discount_uses_discount_idx ON discount_uses (discount_id, email);
  -- Each order's breakdown as placed (null on older orders: their total was all goods). No table rewrite.
  ALTER TABLE orders ADD COLUMN IF NOT EXISTS subtotal_cents bigint;
  ALTER TABLE orders ADD COLUMN IF NOT EXISTS discount_cents bigint;
  ALTER TABLE orders ADD COLUMN IF NOT EXISTS delivery_cents bigint;
  ALTER TABLE orders ADD COLUMN IF NOT EXISTS tax_cents bigint;
  ALTER TABLE orders ADD COLUMN IF NOT EXISTS tax_included boolean;
  ALTER TABLE orders ADD COLUMN IF NOT EXISTS vat_rate_hundredths integer;
  ALTER TABLE orders ADD COLUMN IF NOT EXISTS discount_code text;
  `,
  /* 21: outgoing webhooks: endpoints and one delivery per event and endpoint */ `
  -- An endpoint: where to send which events (src/lib/webhooks.ts), with its signing secret (encrypted with
  -- a key derived from JWT_SECRET: a copy of the database alone cannot sign). Paused: nothing is sent to
  -- it until an admin resumes it; the reason says why. last_success_at decides whether it keeps failing.
  -- Deleted: kept, secret wiped, so an event committing while it goes still finds the row it refers to.
  CREATE TABLE IF NOT EXISTS webhook_endpoints (
    id               text PRIMARY KEY,
    seq              bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    url              text NOT NULL,
    events           text[] NOT NULL,
    secret           text NOT NULL,
    state            text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'paused', 'deleted')),
    paused_reason    text,
    paused_at        timestamptz,
    last_success_at  timestamptz,
    created_by       text NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now()
  );
  -- A delivery: one event to one endpoint, written with the event (events.service.ts) for every endpoint
  -- subscribed then. Its id is the webhook-id header, the same on every attempt. Leased like the outbox's
  -- rows (lease_until); first_at is its first attempt since it was made or replayed; last_* the last attempt.
  CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id           text PRIMARY KEY,
    seq          bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    endpoint_id  text NOT NULL REFERENCES webhook_endpoints (id),
    event_seq    bigint NOT NULL REFERENCES events (seq),
    type         text NOT NULL,
    state        text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts     integer NOT NULL DEFAULT 0,
    next_at      timestamptz NOT NULL DEFAULT now(),
    lease_until  timestamptz,
    first_at     timestamptz,
    last_at      timestamptz,
    last_status  integer,
    last_ms      integer,
    last_error   text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (event_seq, endpoint_id)
  );
  CREATE INDEX IF NOT EXISTS webhook_deliveries_due_idx ON webhook_deliveries (endpoint_id, next_at) WHERE state = 'pending';
  CREATE INDEX IF NOT EXISTS webhook_deliveries_log_idx ON webhook_deliveries (endpoint_id, seq DESC);
  CREATE INDEX IF NOT EXISTS webhook_deliveries_failed_idx ON webhook_deliveries (endpoint_id) WHERE state = 'failed';
  -- The audit log's index again, with the webhooks' admin actions (src/lib/audit.ts AUDIT_ACTIONS).
  DROP INDEX IF EXISTS events_audit_idx;
  CREATE INDEX IF NOT EXISTS events_audit_idx ON events (seq) WHERE actor IS NOT NULL AND type IN (
    'user.made_admin', 'user.deleted', 'tool.added', 'tool.deleted', 'tool.restocked', 'tool.updated', 'tools.imported',
    'quote.answered', 'settings.updated', 'discount.created', 'discount.removed', 'review.hidden', 'review.shown',
    'order.shipped', 'order.delivered', 'order.refunded', 'webhook.created', 'webhook.deleted', 'webhook.resumed',
    'webhook.replayed');
  `,
  /* 22: no statistics for columns no statement filters, joins or sorts on */ `
  -- ANALYZE samples every column; an event's data and an email's bodies are wide and only ever read back, so
  -- their statistics cost most of the table's ANALYZE for nothing (events': ~105 ms → ~24 ms on the embedded
  -- store, where it runs on the server's thread while orders flow; bench/before-after.md, 2026-12-07).
  ALTER TABLE events ALTER COLUMN data SET STATISTICS 0;
  ALTER TABLE emails ALTER COLUMN text_body SET STATISTICS 0, ALTER COLUMN html_body SET STATISTICS 0,
    ALTER COLUMN attachments SET STATISTICS 0;
  ALTER TABLE invoices ALTER COLUMN document SET STATISTICS 0;
  `,
];
