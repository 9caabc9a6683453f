import { PageSpinner } from '../ui/Spinner';

// Placeholder: the MyOrders screen is being built.
export default function MyOrders(_props: { params: Record<string, string> }) {
  return <PageSpinner label="Loading…" />;
}
