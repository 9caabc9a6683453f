import { PageSpinner } from '../ui/Spinner';

// Placeholder: the Payment screen is being built.
export default function Payment(_props: { params: Record<string, string> }) {
  return <PageSpinner label="Loading…" />;
}
