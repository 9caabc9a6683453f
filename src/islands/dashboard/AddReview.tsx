import { PageSpinner } from '../ui/Spinner';

// Placeholder: the AddReview screen is being built.
export default function AddReview(_props: { params: Record<string, string> }) {
  return <PageSpinner label="Loading…" />;
}
