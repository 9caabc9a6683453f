// Seed data for the Ironcrest Tools catalogue and customer reviews.
// All names, reviews and email addresses are fictional.

export interface SeedTool {
  name: string;
  description: string;
  priceCents: number;
  minimumOrderQuantity: number;
  availableQuantity: number;
  img: string;
  /** Quantity prices (issue 26), ascending; none: one price. */
  priceBreaks?: { minQuantity: number; priceCents: number }[];
  /** Orders are whole packs of this many (1 when absent). */
  packSize?: number;
}

export interface SeedReview {
  name: string;
  message: string;
  ratings: number;
  addedBy: string;
}

/** The tool catalogue, oldest first. */
export const seedTools: SeedTool[] = [
  {
    name: 'Ironcrest 16 oz Fiberglass Claw Hammer',
    description:
      'Forged, heat-treated steel head with a smooth face and curved claw, bonded to a fiberglass core handle with an anti-vibration rubber grip. The everyday hammer for general construction, joinery and site maintenance crews.',
    priceCents: 1890,
    minimumOrderQuantity: 50,
    availableQuantity: 4200,
    img: '/images/tools/fiberglass-claw-hammer.svg',
  },
  {
    name: 'Ironcrest 22 oz Milled-Face Framing Hammer',
    description:
      'Long-reach framing hammer with a milled face that grips nail heads, a straight rip claw for prying studs apart and a 16 in hickory handle. Balanced for all-day framing and roofing work.',
    priceCents: 3450,
    minimumOrderQuantity: 30,
    availableQuantity: 2600,
    img: '/images/tools/milled-face-framing-hammer.svg',
    priceBreaks: [
      { minQuantity: 100, priceCents: 3290 },
      { minQuantity: 250, priceCents: 3050 },
    ],
  },
  {
    name: 'Ironcrest 24 oz Ball-Peen Hammer',
    description:
      'Drop-forged carbon steel head with a flat striking face and a rounded peen for shaping metal, setting rivets and striking punches. Hardened faces, lacquered hickory handle and a wedged, epoxy-set head.',
    priceCents: 2240,
    minimumOrderQuantity: 40,
    availableQuantity: 3100,
    img: '/images/tools/ball-peen-hammer.svg',
  },
  {
    name: 'Ironcrest 8 lb Double-Face Sledgehammer',
    description:
      'Double-faced forged steel head with bevelled edges to reduce chipping, on a 36 in fiberglass handle with an overstrike guard. Built for demolition, driving stakes and breaking concrete on heavy job sites.',
    priceCents: 6490,
    minimumOrderQuantity: 10,
    availableQuantity: 850,
    img: '/images/tools/double-face-sledgehammer.svg',
  },
  {
    name: 'Ironcrest 32 oz Rubber Mallet',
    description:
      'Dense black rubber head that strikes firmly without marking wood, tile or finished surfaces. Ideal for laying pavers, assembling furniture and knocking panels into place. Ash wood handle with a non-slip grip.',
    priceCents: 1150,
    minimumOrderQuantity: 60,
    availableQuantity: 3800,
    priceBreaks: [
      { minQuantity: 120, priceCents: 1080 },
      { minQuantity: 300, priceCents: 990 },
    ],
    img: '/images/tools/rubber-mallet.svg',
  },
  {
    name: 'Ironcrest 14 oz Drywall Hammer',
    description:
      'Waffle-faced head dimples the board neatly around each nail for a clean finish, while the notched hatchet blade scores and cuts gypsum board. Lightweight steel shank with a cushioned grip for overhead work.',
    priceCents: 2790,
    minimumOrderQuantity: 25,
    availableQuantity: 1900,
    img: '/images/tools/drywall-hammer.svg',
  },
  {
    name: 'Ironcrest 3 lb Dead-Blow Hammer',
    description:
      'Shot-filled polyurethane head delivers a solid, rebound-free blow that will not spark or mar surfaces. A favourite in automotive shops and machine assembly lines for seating bearings, fixtures and panels.',
    priceCents: 3190,
    minimumOrderQuantity: 20,
    availableQuantity: 1450,
    img: '/images/tools/dead-blow-hammer.svg',
  },
  {
    name: 'Ironcrest 1 in Cold Chisel',
    description:
      'Chrome-vanadium steel chisel with a hardened, precision-ground cutting edge for cutting rivets, bolts and sheet metal. Octagonal shank for a secure grip and an amber hand guard that protects knuckles from missed blows.',
    priceCents: 990,
    minimumOrderQuantity: 100,
    availableQuantity: 5000,
    // Boxed in 25s: a break at 250 and 500 (whole boxes).
    packSize: 25,
    priceBreaks: [
      { minQuantity: 250, priceCents: 920 },
      { minQuantity: 500, priceCents: 850 },
    ],
    img: '/images/tools/cold-chisel.svg',
  },
  {
    name: 'Ironcrest 24 in Flat Pry Bar',
    description:
      'Flat spring-steel bar with a bevelled nail slot at each end for lifting flooring, pulling nails and separating trim without splitting the wood. Hardened and tempered to flex under load rather than snap.',
    priceCents: 1690,
    minimumOrderQuantity: 50,
    availableQuantity: 2750,
    img: '/images/tools/flat-pry-bar.svg',
  },
  {
    name: 'Ironcrest 5 oz Magnetic Tack Hammer',
    description:
      'Slim upholstery hammer with a magnetised face that holds tacks ready to start, and a split claw for pulling them back out. Light, well-balanced and precise for upholstery, picture framing and fine trim work.',
    priceCents: 1390,
    minimumOrderQuantity: 80,
    availableQuantity: 2200,
    img: '/images/tools/magnetic-tack-hammer.svg',
  },
  {
    name: 'Ironcrest 20 oz Brick Hammer',
    description:
      'One-piece forged steel brick hammer with a square striking face and a sharp chisel edge for splitting and dressing brick, block and stone. A shock-reducing grip keeps masons working comfortably through long shifts.',
    priceCents: 2990,
    minimumOrderQuantity: 30,
    availableQuantity: 1600,
    img: '/images/tools/brick-hammer.svg',
  },
  {
    name: 'Ironcrest 3-Piece Nail Set Kit',
    description:
      'Three hardened steel nail sets (1/32, 2/32 and 3/32 in tips) with knurled shanks and cupped points that will not slip off nail heads. Countersinks finish nails cleanly in trim and cabinetry. Supplied in a zip storage pouch.',
    priceCents: 1240,
    minimumOrderQuantity: 100,
    availableQuantity: 3400,
    img: '/images/tools/nail-set-kit.svg',
  },
];

/** Customer reviews, oldest first. */
export const seedReviews: SeedReview[] = [
  {
    name: 'Karim Hossain',
    message:
      'Ordered 200 claw hammers for our site crews. Delivery was on time and every single unit was well finished.',
    ratings: 5,
    addedBy: 'karim.hossain@example.com',
  },
  {
    name: 'Emma Schneider',
    message:
      'Solid framing hammers at a fair bulk price. The milled face really grips the nails. Will reorder next quarter.',
    ratings: 4.5,
    addedBy: 'emma.schneider@example.com',
  },
  {
    name: 'Luis Fernández',
    message: 'Good quality sledgehammers, although the shipment arrived two days later than promised.',
    ratings: 4,
    addedBy: 'luis.fernandez@example.com',
  },
  {
    name: 'Aiko Tanaka',
    message: 'The rubber mallets are perfect for our furniture assembly line. No marks on the panels at all.',
    ratings: 5,
    addedBy: 'aiko.tanaka@example.com',
  },
  {
    name: 'Oluwaseun Adeyemi',
    message:
      "Bought 500 cold chisels for our maintenance teams. Edges stay sharp much longer than our previous supplier's.",
    ratings: 4.5,
    addedBy: 'seun.adeyemi@example.com',
  },
  {
    name: 'Sofia Rossi',
    message: 'Ordering in bulk was simple and the account manager answered every question within the hour.',
    ratings: 5,
    addedBy: 'sofia.rossi@example.com',
  },
  {
    name: "Liam O'Connor",
    message: 'Decent pry bars. A few in the batch had rough edges near the nail slot that we had to file down.',
    ratings: 3.5,
    addedBy: 'liam.oconnor@example.com',
  },
  {
    name: 'Mei Lin Chen',
    message: 'Dead-blow hammers are excellent for our automotive workshop. Zero rebound and they feel very durable.',
    ratings: 5,
    addedBy: 'meilin.chen@example.com',
  },
  {
    name: 'Arjun Mehta',
    message:
      'Great price per unit once you pass the minimum order. The tack hammers sold out in our stores within a week.',
    ratings: 4.5,
    addedBy: 'arjun.mehta@example.com',
  },
  {
    name: 'Hannah Becker',
    message:
      'Packaging was sturdy and every box was clearly labelled with quantities. That made receiving the order very easy.',
    ratings: 4,
    addedBy: 'hannah.becker@example.com',
  },
  {
    name: 'Mohammed Al-Farsi',
    message:
      'Our order of 300 ball-peen hammers arrived with 12 damaged handles. Support replaced them, but it took three weeks.',
    ratings: 2,
    addedBy: 'm.alfarsi@example.com',
  },
  {
    name: 'Chloé Martin',
    message: 'The drywall hammers are light and well balanced. Our crew prefers them over the brand we used before.',
    ratings: 4.5,
    addedBy: 'chloe.martin@example.com',
  },
  {
    name: 'Pedro Alves',
    message: "Brick hammers hold their edge on hard engineering bricks. Good value for a mason's yard like ours.",
    ratings: 4,
    addedBy: 'pedro.alves@example.com',
  },
  {
    name: 'Ngozi Okafor',
    message:
      'Reliable supplier for our hardware chain. Stock levels shown on the site were accurate every time we ordered.',
    ratings: 5,
    addedBy: 'ngozi.okafor@example.com',
  },
  {
    name: 'Jakub Nowak',
    message: 'Nail set kits are well made and the pouch is a nice touch for resale. Fast dispatch to Poland too.',
    ratings: 4.5,
    addedBy: 'jakub.nowak@example.com',
  },
  {
    name: 'Fatima Zahra',
    message:
      'Minimum order quantities are reasonable for a small distributor like us, which many manufacturers do not offer.',
    ratings: 4,
    addedBy: 'fatima.zahra@example.com',
  },
  {
    name: 'Daniel Kim',
    message: 'Fiberglass claw hammers survived a full winter on our sites without a single broken handle. Impressive.',
    ratings: 5,
    addedBy: 'daniel.kim@example.com',
  },
  {
    name: 'Isabella García',
    message: 'Nice tools, but the checkout kept rejecting our company card until we contacted support.',
    ratings: 3,
    addedBy: 'isabella.garcia@example.com',
  },
  {
    name: 'Tariq Siddiqui',
    message: 'Third bulk order this year. Quality is consistent from batch to batch, which is exactly what we need.',
    ratings: 5,
    addedBy: 'tariq.siddiqui@example.com',
  },
  {
    name: 'Anna Kowalczyk',
    message: 'The sledgehammers are heavy duty and the overstrike guard has already saved a few handles.',
    ratings: 4.5,
    addedBy: 'anna.kowalczyk@example.com',
  },
  {
    name: 'Kenji Watanabe',
    message: 'Good tools overall. I would like more handle length options for the framing hammers.',
    ratings: 4,
    addedBy: 'kenji.watanabe@example.com',
  },
  {
    name: 'Amara Nwosu',
    message:
      'Ordered 1,000 rubber mallets for a paving contract. Everything arrived on one pallet, well wrapped and complete.',
    ratings: 5,
    addedBy: 'amara.nwosu@example.com',
  },
  {
    name: 'Viktor Petrov',
    message:
      'Cold chisels are fine, but the hand guards on part of the order came loose after a few weeks of heavy use.',
    ratings: 2.5,
    addedBy: 'viktor.petrov@example.com',
  },
  {
    name: 'Grace Thompson',
    message:
      'Bulk pricing is transparent and invoices were clear. Our procurement team was very happy with the process.',
    ratings: 4.5,
    addedBy: 'grace.thompson@example.com',
  },
  {
    name: 'Rafael Costa',
    message: 'Tack hammers with the magnetic face are a hit with our upholstery workshop. We doubled the next order.',
    ratings: 5,
    addedBy: 'rafael.costa@example.com',
  },
  {
    name: 'Leila Haddad',
    message: 'Good quality dead-blow hammers. Lead time was longer than expected during the busy season.',
    ratings: 3.5,
    addedBy: 'leila.haddad@example.com',
  },
  {
    name: 'Sven Johansson',
    message: 'Pry bars flex without snapping, just as described. Our renovation crews rely on them daily.',
    ratings: 4.5,
    addedBy: 'sven.johansson@example.com',
  },
  {
    name: 'Zanele Dlamini',
    message:
      'Excellent service from quote to delivery. The team even helped us split the shipment across two warehouses.',
    ratings: 5,
    addedBy: 'zanele.dlamini@example.com',
  },
  {
    name: 'Marco Bianchi',
    message: 'Wrong handle colour on half of the order and it took a month to sort out. The tools themselves are fine.',
    ratings: 1.5,
    addedBy: 'marco.bianchi@example.com',
  },
  {
    name: 'Yuki Sato',
    message: 'Drywall hammers with the hatchet blade save our installers from carrying an extra knife. Very practical.',
    ratings: 4.5,
    addedBy: 'yuki.sato@example.com',
  },
  {
    name: 'Olga Ivanova',
    message: 'We stock Ironcrest in all twelve of our stores now. Customers ask for the claw hammers by name.',
    ratings: 5,
    addedBy: 'olga.ivanova@example.com',
  },
  {
    name: 'Samuel Mensah',
    message: 'Good bulk value. I would appreciate volume discounts starting at a lower quantity for smaller shops.',
    ratings: 4,
    addedBy: 'samuel.mensah@example.com',
  },
  {
    name: 'Lucía Romero',
    message: 'Brick hammers are beautifully forged and well balanced. Our masons noticed the difference straight away.',
    ratings: 5,
    addedBy: 'lucia.romero@example.com',
  },
  {
    name: 'Ahmet Yılmaz',
    message: 'Shipment to Istanbul was quick and customs paperwork was complete. Hammers are solid and well finished.',
    ratings: 4.5,
    addedBy: 'ahmet.yilmaz@example.com',
  },
  {
    name: 'Claire Dubois',
    message: 'Ball-peen hammers are great for our metalwork classes. Students find the weight easy to control.',
    ratings: 4,
    addedBy: 'claire.dubois@example.com',
  },
  {
    name: 'Rohan Kapoor',
    message: 'Placed an order of 800 framing hammers for a housing project. Not one return so far.',
    ratings: 5,
    addedBy: 'rohan.kapoor@example.com',
  },
  {
    name: 'Elif Demir',
    message: 'The order tracking page did not update for days, so we had to phone to find out where our pallet was.',
    ratings: 2,
    addedBy: 'elif.demir@example.com',
  },
  {
    name: 'Thomas Müller',
    message: 'Consistent hardness on the cold chisels, confirmed by our own QA checks. A manufacturer we trust.',
    ratings: 5,
    addedBy: 'thomas.mueller@example.com',
  },
  {
    name: 'Nur Aisyah',
    message: 'Nail set kits are compact and sturdy. Perfect as add-on items at the counter of our hardware shop.',
    ratings: 4.5,
    addedBy: 'nur.aisyah@example.com',
  },
  {
    name: 'Diego Herrera',
    message:
      'Good sledgehammers for the price. Freight costs for heavy items are high, but that is hardly their fault.',
    ratings: 4,
    addedBy: 'diego.herrera@example.com',
  },
  {
    name: 'Astrid Nilsen',
    message:
      'Reordering was quick thanks to the saved order history. The rubber mallets are as good as the first batch.',
    ratings: 4.5,
    addedBy: 'astrid.nilsen@example.com',
  },
  {
    name: 'Kofi Boateng',
    message: 'Five years of ordering hammers in bulk and Ironcrest is the most reliable supplier we have worked with.',
    ratings: 5,
    addedBy: 'kofi.boateng@example.com',
  },
];
