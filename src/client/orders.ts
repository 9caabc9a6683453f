// The order as the browser sees it (GET /api/booking…), shared by My orders, Payment and the admin list.
export interface Order {
  _id: string;
  toolId: string | null;
  productName: string;
  price: number;
  totalCents: number;
  userName: string;
  email: string;
  address: string;
  phone: string;
  quantity: number;
  payment: 'unpaid' | 'paid' | 'cancelled';
  transactionId: string | null;
  shippingStatus: 'pending' | 'shipped';
  cancelReason: string | null;
  createdAt: string;
  expiresAt: string;
}
