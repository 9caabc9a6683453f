// The order as the browser sees it (GET /api/booking…).
export type { Order } from '../lib/entities';
