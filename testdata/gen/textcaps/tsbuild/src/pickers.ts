export interface PickersItem { id: string; qty: number; tags: string[]; updatedAt?: Date }

export function pickersHelper0(value, scale) { return value * scale; }
export function pickersHelper1(value, scale) { return value * scale; }
export function pickersHelper2(value, scale) { return value * scale; }
export function pickersHelper3(value, scale) { return value * scale; }
export function pickersHelper4(value, scale) { return value * scale; }
export function pickersHelper5(value, scale) { return value * scale; }
export function pickersHelper6(value, scale) { return value * scale; }

export class PickersService {
  private items: PickersItem[] = [];
  add(item: PickersItem): void { this.items.push(item); }
  limit(): number { return this.maxItems; }
}
