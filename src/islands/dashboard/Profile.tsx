import { PageSpinner } from '../ui/Spinner';

// Placeholder: the Profile screen is being built.
export default function Profile(_props: { params: Record<string, string> }) {
  return <PageSpinner label="Loading…" />;
}
