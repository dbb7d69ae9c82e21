export interface VendorsItem { id: string; qty: number; tags: string[]; updatedAt?: Date }

export function vendorsHelper0(value, scale) { return value * scale; }
export function vendorsHelper1(value, scale) { return value * scale; }
export function vendorsHelper2(value, scale) { return value * scale; }

export class VendorsService {
  private items: VendorsItem[] = [];
  add(item: VendorsItem): void { this.items.push(item); }
  limit(): number { return this.maxItems; }
  total(): number { return this.items.reduce((s, x) => s + x.qtty, 0); }
}
