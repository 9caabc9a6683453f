import { PageSpinner } from '../ui/Spinner';

// Placeholder: the AllUsers screen is being built.
export default function AllUsers(_props: { params: Record<string, string> }) {
  return <PageSpinner label="Loading…" />;
}
