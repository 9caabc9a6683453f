// Demo data for an empty store: the Ironcrest Tools catalogue and customer reviews (seed-data.json; all names,
// reviews and email addresses are fictional), with the shapes the seed and the bench read them as.
import data from './seed-data.json' with { type: 'json' };

export interface SeedTool {
  name: string;
  description: string;
  priceCents: number;
  minimumOrderQuantity: number;
  availableQuantity: number;
  img: string;
  /** Quantity prices (issue 26), ascending; none: one price. */
  priceBreaks?: { minQuantity: number; priceCents: number }[];
  /** Orders are whole packs of this many (1 when absent; the cold chisel is boxed in 25s). */
  packSize?: number;
}

export interface SeedReview {
  name: string;
  message: string;
  ratings: number;
  addedBy: string;
}

/** The tool catalogue, oldest first. */
export const seedTools: SeedTool[] = data.tools;

/** Customer reviews, oldest first. */
export const seedReviews: SeedReview[] = data.reviews;
