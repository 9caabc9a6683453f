import { PageSpinner } from '../ui/Spinner';

// Placeholder: the AddProduct screen is being built.
export default function AddProduct(_props: { params: Record<string, string> }) {
  return <PageSpinner label="Loading…" />;
}
