import { PageSpinner } from '../ui/Spinner';

// Placeholder: the ManageAllOrders screen is being built.
export default function ManageAllOrders(_props: { params: Record<string, string> }) {
  return <PageSpinner label="Loading…" />;
}
