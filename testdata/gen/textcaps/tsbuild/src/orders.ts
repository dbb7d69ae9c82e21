export interface OrdersItem { id: string; qty: number; tags: string[]; updatedAt?: Date }

export function ordersHelper0(value, scale) { return value * scale; }
export function ordersHelper1(value, scale) { return value * scale; }
export function ordersHelper2(value, scale) { return value * scale; }
export function ordersHelper3(value, scale) { return value * scale; }
export function ordersHelper4(value, scale) { return value * scale; }

export class OrdersService {
  private items: OrdersItem[] = [];
  add(item: OrdersItem): void { this.items.push(item); }
  count(): number { const n: number = "2"; return n; }
  tag(t: string): void { this.items.forEach(x => x.tags.push(42)); }
}
