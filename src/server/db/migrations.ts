// The schema, as ordered migrations. Append new ones; never edit one that has shipped.
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
];
