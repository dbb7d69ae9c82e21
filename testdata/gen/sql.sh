#!/usr/bin/env bash
# sql.sh writes testdata/captured/sqlite-orders.json: the real output of
# `sqlite3 -json` for a report query over a generated shop database.
# The rows are computed by recursive CTEs from the row number alone (no
# randomness), so the output is the same on every machine with sqlite3 >= 3.33
# (the first release with -json).
# Run from the repository root: testdata/gen/sql.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
sqlite3 -json :memory: >testdata/captured/sqlite-orders.json <<'SQL'
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT NOT NULL, tier TEXT NOT NULL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
INSERT INTO customers
SELECT i,
       'Customer ' || printf('%04d', i),
       CASE i % 7 WHEN 0 THEN 'DE' WHEN 1 THEN 'US' WHEN 2 THEN 'FR' WHEN 3 THEN 'JP' WHEN 4 THEN 'BR' WHEN 5 THEN 'US' ELSE 'GB' END,
       CASE WHEN i % 23 = 0 THEN 'enterprise' WHEN i % 5 = 0 THEN 'pro' ELSE 'free' END
FROM n;

CREATE TABLE orders (
  id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id),
  status TEXT NOT NULL, sku TEXT NOT NULL, quantity INTEGER NOT NULL,
  unit_price_cents INTEGER NOT NULL, currency TEXT NOT NULL,
  created_at TEXT NOT NULL, shipped_at TEXT, coupon TEXT, note TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2400)
INSERT INTO orders
SELECT 100000 + i,
       1 + (i * 7919) % 300,
       CASE WHEN (i * 31) % 100 < 62 THEN 'delivered' WHEN (i * 31) % 100 < 80 THEN 'shipped'
            WHEN (i * 31) % 100 < 91 THEN 'pending' WHEN (i * 31) % 100 < 97 THEN 'cancelled' ELSE 'refunded' END,
       'SKU-' || printf('%05d', 10 + (i * 104729) % 480),
       1 + (i * 13) % 5,
       199 + (i * 2654435761) % 24800,
       'EUR',
       strftime('%Y-%m-%dT%H:%M:%SZ', '2026-01-01 00:00:00', '+' || (i * 9547 % 27000000) || ' seconds'),
       NULL,
       CASE WHEN i % 17 = 0 THEN 'WINTER25' WHEN i % 29 = 0 THEN 'FREESHIP' ELSE NULL END,
       CASE WHEN i % 41 = 0 THEN 'Customer asked for delivery after 18:00; leave with the concierge if nobody answers.' ELSE NULL END
FROM n;
UPDATE orders SET shipped_at = strftime('%Y-%m-%dT%H:%M:%SZ', created_at, '+' || (1 + id % 4) || ' days')
 WHERE status IN ('shipped', 'delivered', 'refunded');

SELECT o.id AS order_id, o.created_at, o.status, c.id AS customer_id, c.name AS customer,
       c.country, c.tier, o.sku, o.quantity, o.unit_price_cents,
       o.quantity * o.unit_price_cents AS total_cents, o.currency, o.shipped_at, o.coupon, o.note
  FROM orders o JOIN customers c ON c.id = o.customer_id
 ORDER BY o.created_at, o.id;
SQL
