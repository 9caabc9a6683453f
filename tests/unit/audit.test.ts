import { describe, expect, it } from 'vitest';
import { AUDIT_ACTION_TYPES, auditActionLabel, describeChange } from '../../src/lib/audit';

describe('the audit log in words', () => {
  it('names every admin action, and shows an unknown type as itself', () => {
    expect(auditActionLabel('user.made_admin')).toBe('Made admin');
    expect(auditActionLabel('tool.restocked')).toBe('Restocked');
    for (const type of AUDIT_ACTION_TYPES) expect(auditActionLabel(type)).not.toBe(type);
    expect(auditActionLabel('something.new')).toBe('something.new');
  });

  it('shows a change as before → after, one line per field that differs', () => {
    expect(describeChange({ availableQuantity: 30 }, { availableQuantity: 75 })).toEqual(['available: 30 → 75']);
    expect(describeChange({ role: 'user' }, { role: 'admin' })).toEqual(['role: user → admin']);
    expect(describeChange({ hidden: false, name: 'A' }, { hidden: true, name: 'A' })).toEqual(['hidden: false → true']);
  });

  it('shows a thing added or removed on one side only', () => {
    expect(describeChange(null, { name: 'Mallet', price: 9.5 })).toEqual(['name: — → Mallet', 'price: — → $9.50']);
    expect(describeChange({ email: 'a@b.co' }, null)).toEqual(['email: a@b.co → —']);
    expect(describeChange(null, null)).toEqual([]);
  });
});
