// The entities as the API serves them (spec point 3 names), shared by the server's mappers,
// the islands and the tests. Money is dollars here because the spec's JSON says `price`.
export interface Tool {
  _id: string;
  name: string;
  img: string;
  description: string;
  minimumOrderQuantity: number;
  availableQuantity: number;
  price: number;
}

export interface Order {
  _id: string;
  toolId: string | null;
  productName: string;
  /** Unit price in dollars, as placed. */
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

export interface UserProfile {
  email: string;
  name: string;
  education: string;
  social: string;
  phoneNumber: string;
  address: string;
  signUpDate: string;
  role: 'user' | 'admin';
}

export interface Review {
  _id: string;
  name: string;
  Messege: string;
  ratings: number;
  addedBy: string;
}

/** GET /reviews: one page and the total. */
export interface ReviewsPage {
  services: Review[];
  count: number;
}
