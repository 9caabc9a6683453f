import { describe, expect, it } from 'vitest';
import { messages } from '../../src/lib/messages';
import {
  fieldErrors,
  loginSchema,
  orderInputSchema,
  phoneSchema,
  profileUpdateSchema,
  ratingSchema,
  reviewInputSchema,
  signupSchema,
  toolInputSchema,
} from '../../src/lib/schemas';
import { reviewErrors } from '../../src/lib/review-rules';
import { quantityError } from '../../src/lib/rules';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('login and signup (spec point 5)', () => {
  it.each(['a@b.co', 'shopper@ironcrest.test', 'x.y+z@sub.example.org'])('accepts %s', (email) => {
    expect(loginSchema.safeParse({ email, password: '123456' }).success).toBe(true);
  });
  it.each(['', 'plain', 'a@b', '@b.c', 'a b@c.d', 'a@b.'])('refuses %j with "Invalid email"', (email) => {
    expect(firstMessage(loginSchema.safeParse({ email, password: '123456' }))).toBe(messages.invalidEmail);
  });
  it('needs 6 password characters', () => {
    expect(firstMessage(loginSchema.safeParse({ email: 'a@b.co', password: '12345' }))).toBe(messages.passwordTooShort);
  });
  it('needs the confirmation to match and a name', () => {
    const errors = fieldErrors(
      signupSchema.safeParse({ name: '', email: 'a@b.co', password: '123456', confirmPassword: '123457' }).error!,
    );
    expect(errors.name).toBe(messages.nameRequired);
    const mismatch = signupSchema.safeParse({
      name: 'A',
      email: 'a@b.co',
      password: '123456',
      confirmPassword: '123457',
    });
    expect(fieldErrors(mismatch.error!).confirmPassword).toBe(messages.passwordsDontMatch);
  });
  it('lower-cases emails so one person is one account', () => {
    expect(loginSchema.parse({ email: 'Sam@Example.COM', password: '123456' }).email).toBe('sam@example.com');
  });
});

describe('purchase (spec point 5)', () => {
  it.each(['01712345678', '+8801712345678', '008801912345678', '01312345678'])('accepts the phone %s', (phone) => {
    expect(phoneSchema.safeParse(phone).success).toBe(true);
  });
  it.each(['', '0171234567', '01212345678', '+8701712345678', '017123456789', 'phone'])(
    'refuses the phone %j',
    (phone) => {
      expect(firstMessage(phoneSchema.safeParse(phone))).toBe(messages.invalidPhone);
    },
  );
  it('checks the quantity against the tool', () => {
    const tool = { minimumOrderQuantity: 10, availableQuantity: 50 };
    expect(quantityError(9, tool)).toBe(messages.quantityBelowMinimum);
    expect(quantityError(51, tool)).toBe(messages.quantityAboveAvailable);
    expect(quantityError(Number.NaN, tool)).toBe(messages.quantityBelowMinimum);
    expect(quantityError(10, tool)).toBeNull();
    expect(quantityError(50, tool)).toBeNull();
  });
  it('drops any client price, email or payment from an order', () => {
    const order = orderInputSchema.parse({
      toolId: 'a'.repeat(24),
      quantity: 10,
      address: 'Dhaka',
      phone: '01712345678',
      price: 0.01,
      email: 'evil@example.com',
      payment: 'paid',
    });
    expect(order).toEqual({ toolId: 'a'.repeat(24), quantity: 10, address: 'Dhaka', phone: '01712345678' });
  });
  it('refuses fractional or non-positive quantities', () => {
    for (const quantity of [0, -1, 1.5, 'ten']) {
      expect(
        orderInputSchema.safeParse({ toolId: 'a'.repeat(24), quantity, address: 'x', phone: '01712345678' }).success,
      ).toBe(false);
    }
  });
});

describe('reviews (spec point 5)', () => {
  it.each([1, 5, 4.25, '3.5'])('accepts the rating %j', (rating) => {
    expect(ratingSchema.safeParse(rating).success).toBe(true);
  });
  it.each([0.99, 5.01, 4.255, 'x', Number.NaN])('refuses the rating %j with the spec message', (rating) => {
    expect(firstMessage(ratingSchema.safeParse(rating))).toBe(messages.ratingRange);
  });
  it('needs a name of at most 20 characters', () => {
    expect(reviewInputSchema.safeParse({ name: 'x'.repeat(20), Messege: 'Good', ratings: 5 }).success).toBe(true);
    expect(firstMessage(reviewInputSchema.safeParse({ name: 'x'.repeat(21), Messege: 'Good', ratings: 5 }))).toBe(
      messages.reviewNameTooLong,
    );
    expect(firstMessage(reviewInputSchema.safeParse({ name: '  ', Messege: 'Good', ratings: 5 }))).toBe(
      messages.nameRequired,
    );
  });
  // The tool page's review form checks without zod (rules.ts); it must say what the API says.
  it.each([
    { name: 'Rahim', Messege: 'Good', ratings: '4.75' },
    { name: 'x'.repeat(20), Messege: ' Good ', ratings: '1' },
    { name: 'x'.repeat(21), Messege: 'Good', ratings: '5' },
    { name: '  ', Messege: '', ratings: '' },
    { name: 'Rahim', Messege: 'm'.repeat(2001), ratings: '0.99' },
    { name: 'Rahim', Messege: 'Good', ratings: '4.255' },
    { name: 'Rahim', Messege: 'Good', ratings: 'abc' },
    { name: 'Rahim', Messege: 'Good', ratings: '5.01' },
  ])('the form rules agree with the schema on %j', (values) => {
    const parsed = reviewInputSchema.safeParse(values);
    expect(reviewErrors(values)).toEqual(parsed.success ? {} : fieldErrors(parsed.error));
  });
});

describe('products and profiles', () => {
  const tool = {
    name: 'Hammer',
    description: 'Strong',
    price: 12.5,
    availableQuantity: 100,
    img: '/images/tools/x.svg',
  };
  it("takes the spec's MinimumOrderQuantity spelling into the right field", () => {
    expect(toolInputSchema.parse({ ...tool, MinimumOrderQuantity: 10 }).minimumOrderQuantity).toBe(10);
    expect(toolInputSchema.parse({ ...tool, minimumOrderQuantity: 12 }).minimumOrderQuantity).toBe(12);
    expect(toolInputSchema.safeParse(tool).success).toBe(false);
  });
  it('refuses prices with more than two decimals and script URLs for images', () => {
    expect(toolInputSchema.safeParse({ ...tool, minimumOrderQuantity: 1, price: 1.005 }).success).toBe(false);
    expect(toolInputSchema.safeParse({ ...tool, minimumOrderQuantity: 1, img: 'javascript:alert(1)' }).success).toBe(
      false,
    );
  });
  it('never lets a profile update carry a role or an email', () => {
    const update = profileUpdateSchema.parse({
      name: 'Sam',
      role: 'admin',
      email: 'other@example.com',
      phoneNumber: 1712345678,
    });
    expect(update).toEqual({ name: 'Sam', education: '', social: '', phoneNumber: '1712345678', address: '' });
  });
});
