export interface ZonesItem { id: string; qty: number; tags: string[]; updatedAt?: Date }

export function zonesHelper0(value, scale) { return value * scale; }
export function zonesHelper1(value, scale) { return value * scale; }
export function zonesHelper2(value, scale) { return value * scale; }
export function zonesHelper3(value, scale) { return value * scale; }
export function zonesHelper4(value, scale) { return value * scale; }
export function zonesHelper5(value, scale) { return value * scale; }
export function zonesHelper6(value, scale) { return value * scale; }

export class ZonesService {
  private items: ZonesItem[] = [];
  add(item: ZonesItem): void { this.items.push(item); }
}
