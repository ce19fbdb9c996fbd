/*
 * The store of StateHubTypesTests: one of each thing `statehub types` infers (docs/types.md).
 * Generated/InventoryTypes.swift is `statehub types` of this file; scripts/test.sh checks it:
 *   statehub types Tests/StateHubTypesTests/Fixtures/inventory.js -o Tests/StateHubTypesTests/Generated/InventoryTypes.swift
 */
// An own `__proto__` key (a literal one would set the prototype).
function withOwnProto(state) {
  Object.defineProperty(state, '__proto__', { value: 'own', enumerable: true, writable: true, configurable: true });
  return state;
}

const useInventory = defineStore('inventory', {
  state: () => withOwnProto({
    count: 3,                                   // Int
    price: 9.5,                                 // Double
    owner: { name: 'Ada', nickname: null },     // a struct with an optional field
    items: [                                    // [Item]: weight is Double (one is not integral), gift optional
      { sku: 'A1', qty: 2, weight: 1 },
      { sku: 'B2', qty: 1, weight: 0.25, gift: true },
    ],
    tags: ['fragile', 7, true],                 // a union: [Tag], an enum with associated values
    stock: { 'sku-a1': 4, 'sku-b2': 0 },        // a dictionary: keys that are no identifiers
    updatedAt: new Date('2026-11-22T10:00:00.000Z'),
    byWarehouse: new Map([['north', 3], ['south', 5]]),
    seen: new Set([1, 2, 3]),
    serial: 12345678901234567890n,
    class: 'keyword',                           // a Swift keyword
    'a-b': 1,                                   // no identifier: a CodingKey
    '': 'empty',                                // the empty key: a CodingKey too
    missing: undefined,                         // undefined: an optional
    self: 'self',                               // renamed self_, with a CodingKey
    CodingKeys: 1,                              // renamed CodingKeys_ (the enum has the name)
    Item: 'a property',                         // the nested type of `items` becomes Item2
  }),
  actions: {
    add(item, note) {
      this.items.push(item);
      this.count++;
      return this.count;
    },
    stamp() {
      this.updatedAt = new Date('2026-11-23T08:30:00.500Z');
      this.seen.add(4);
      this.byWarehouse.set('east', 1);
    },
  },
});
useInventory();
