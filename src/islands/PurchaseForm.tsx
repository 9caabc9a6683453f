import type { Tool } from '../server/tools/tools.service';
import { PageSpinner } from './ui/Spinner';

/** The purchase form on /tools/{id} (quantity, address, phone). */
export default function PurchaseForm({ tool }: { tool: Tool }) {
  return <PageSpinner label={`Loading the order form for ${tool.name}…`} />;
}
