export interface PricingItem { id: string; qty: number; tags: string[]; updatedAt?: Date }

export function pricingHelper0(value, scale) { return value * scale; }

export class PricingService {
  private items: PricingItem[] = [];
  add(item: PricingItem): void { this.items.push(item); }
  count(): number { const n: number = "8"; return n; }
}
