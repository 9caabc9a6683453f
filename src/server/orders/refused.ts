// A line of an order that cannot be met, thrown by placing (nothing of the order was taken).
export interface LineRefusal {
  index: number;
  toolId: string;
  /** null when the tool no longer exists. */
  toolName: string | null;
  message: string;
}
export class Refused extends Error {
  readonly refusal: LineRefusal;
  /** Whether an unpaid order past its hold still holds units of the tool (undefined: not looked). */
  readonly expiredHolds: boolean | undefined;
  constructor(refusal: LineRefusal, expiredHolds?: boolean) {
    super(refusal.message);
    this.refusal = refusal;
    this.expiredHolds = expiredHolds;
  }
}
