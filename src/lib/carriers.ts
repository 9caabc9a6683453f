// Carriers the shop knows by name, with their public tracking pages: the order page, the admin's
// orders and the shipping email link a tracking number to them. Any other carrier is shown as typed.
const CARRIER_LINKS: Record<string, (tracking: string) => string> = {
  dhl: (t) => `https://www.dhl.com/global-en/home/tracking.html?tracking-id=${encodeURIComponent(t)}`,
  fedex: (t) => `https://www.fedex.com/fedextrack/?trknbr=${encodeURIComponent(t)}`,
  ups: (t) => `https://www.ups.com/track?tracknum=${encodeURIComponent(t)}`,
  usps: (t) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${encodeURIComponent(t)}`,
};

/** A tracking link for the carriers we know (by name, any case), or undefined. */
export function trackingLink(carrier: string, tracking: string): string | undefined {
  return CARRIER_LINKS[carrier.trim().toLowerCase()]?.(tracking);
}

/** Offered as the ship form's suggestions; any other carrier may be typed. */
export const KNOWN_CARRIERS = ['DHL', 'FedEx', 'UPS', 'USPS'] as const;
