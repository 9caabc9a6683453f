import { PageSpinner } from '../ui/Spinner';

// Placeholder: the ManageProducts screen is being built.
export default function ManageProducts(_props: { params: Record<string, string> }) {
  return <PageSpinner label="Loading…" />;
}
