export interface CarriersItem { id: string; qty: number; tags: string[]; updatedAt?: Date }

export function carriersHelper0(value, scale) { return value * scale; }

export class CarriersService {
  private items: CarriersItem[] = [];
  add(item: CarriersItem): void { this.items.push(item); }
  count(): number { const n: number = "4"; return n; }
}
