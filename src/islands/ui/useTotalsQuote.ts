// What an order of these lines would cost (POST /quote-totals), asked again ~300 ms after the lines
// change, with the discount code the buyer applied. A code the server refuses gives its message (the
// 422's discountCode field) and is dropped; editing the code drops the applied one.
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, errorMessage, serverFieldErrors } from '../../client/infra/api';
import type { ShopSettings, TotalsBreakdown } from '../../lib/entities';

type Items = { toolId: string; quantity: number }[];

// The settings tell a delivery made free by the threshold from a shop that charges none; read once a page.
let settings: Promise<ShopSettings | null> | null = null;
const readSettings = () => (settings ??= api.settings.get().catch(() => null));

const DEBOUNCE_MS = 300;

export function useTotalsQuote(items: Items | null) {
  const [code, setCodeValue] = useState('');
  const [applied, setApplied] = useState<string | null>(null);
  const [totals, setTotals] = useState<TotalsBreakdown | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [applying, setApplying] = useState(false);
  const [shop, setShop] = useState<ShopSettings | null>(null);
  const key = items?.length ? JSON.stringify(items) : null;
  // What the totals shown were asked for, so applying a code does not ask twice.
  const asked = useRef<string | null>(null);

  useEffect(() => {
    void readSettings().then(setShop);
  }, []);

  const ask = useCallback(
    (itemsKey: string, discountCode: string | null) =>
      api.totals.quote({ body: { items: JSON.parse(itemsKey) as Items, ...(discountCode ? { discountCode } : {}) } }),
    [],
  );

  useEffect(() => {
    const wanted = `${key}|${applied ?? ''}`;
    if (!key || asked.current === wanted) return;
    let current = true;
    const timer = setTimeout(() => {
      asked.current = wanted;
      ask(key, applied).then(
        (t) => current && setTotals(t),
        (error: unknown) => {
          if (!current) return;
          asked.current = null;
          const refused = serverFieldErrors(error)?.discountCode;
          // The lines changed under an applied code (e.g. below its minimum): say why, and quote without it.
          if (refused && applied) {
            setCodeError(refused);
            setApplied(null);
          } else setTotals(null);
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key, applied, ask]);

  async function apply() {
    const wanted = code.trim();
    if (!key || !wanted) return;
    setApplying(true);
    setCodeError(null);
    try {
      const t = await ask(key, wanted);
      asked.current = `${key}|${t.discountCode ?? wanted}`;
      setApplied(t.discountCode ?? wanted);
      setTotals(t);
    } catch (error) {
      setApplied(null);
      setCodeError(serverFieldErrors(error)?.discountCode ?? errorMessage(error));
    } finally {
      setApplying(false);
    }
  }

  function setCode(value: string) {
    setCodeValue(value);
    setCodeError(null);
    if (applied !== null && value.trim().toUpperCase() !== applied.toUpperCase()) setApplied(null);
  }

  // No lines (or a quantity that cannot be ordered): no totals, whatever was asked before.
  const shown = key ? totals : null;
  const freeDelivery = Boolean(
    shown &&
    shown.deliveryCents === 0 &&
    shop &&
    shop.deliveryFlat > 0 &&
    shop.freeDeliveryOver !== null &&
    shown.subtotalCents > 0,
  );
  return { code, setCode, applied, apply, applying, codeError, totals: shown, freeDelivery };
}

export type TotalsQuote = ReturnType<typeof useTotalsQuote>;
