// Random Yjs histories for the v2 format tests, one JSON command per line (PeerProcess.swift).
// Each history returns what Yjs itself writes: every edit's update in v1 and v2, its
// conversions, merges, diffs and state vectors of v2 updates, and each replica's full state.
// Run with NODE_PATH=/usr/share/nodejs (Debian's node-yjs 13.5).
'use strict'
const Y = require('yjs')
const readline = require('readline')

const b64 = (bytes) => Buffer.from(bytes).toString('base64')
const unb64 = (text) => new Uint8Array(Buffer.from(text, 'base64'))

// mulberry32: a small seeded generator, so a seed names one history.
function generator (seed) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6D2B79F5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n) => Math.floor(next() * n)
  const pick = (list) => list[int(list.length)]
  return { next, int, pick }
}

const texts = ['a', 'hi', 'hello world', 'é', 'ünï', '😀', 'x😀y', '日本語', 'abcdefghijklmnopqrstuvwxyz']
function value (r, depth = 0) {
  switch (r.int(depth > 2 ? 6 : 9)) {
    case 0: return r.int(100)
    case 1: return r.int(2) ? 1.5 : -3.25e10
    case 2: return r.pick(texts)
    case 3: return r.int(2) === 0
    case 4: return null
    case 5: return 2 ** 40 + r.int(10)
    case 6: return { k: value(r, depth + 1), 7: r.int(9), z: [value(r, depth + 1)] }
    case 7: return [value(r, depth + 1), value(r, depth + 1)]
    default: return new Uint8Array([r.int(256), 0, 255])
  }
}
const attributes = (r) => r.pick([{ bold: true }, { italic: true, color: '#f00' }, { bold: null }, { link: { href: 'x', n: 1 } }])
const embed = (r) => r.pick([{ image: 'a.png' }, { formula: 'x^2', size: 3 }, { 2: 'b', a: [1, 2.5] }])

// Every shared type reachable from the roots.
function types (doc) {
  const found = []
  const walk = (type) => {
    found.push(type)
    if (type instanceof Y.Map) { for (const v of type.values()) if (v instanceof Y.AbstractType) walk(v) }
    if (type instanceof Y.Array || type instanceof Y.XmlFragment) { for (const v of type.toArray()) if (v instanceof Y.AbstractType) walk(v) }
    if (type instanceof Y.XmlElement) { /* attributes are values, children walked above */ }
  }
  for (const root of [doc.getMap('m'), doc.getArray('a'), doc.getText('t'), doc.getXmlFragment('x')]) walk(root)
  return found
}

// XML types go under the XML root only: Yjs shows them as XML strings in toJSON, which the
// test compares for the other roots.
function newType (r) {
  return r.pick([() => new Y.Map(), () => new Y.Array(), () => new Y.Text()])()
}

// With `subdocs`, a history also puts sub-documents (content ref 9) in maps and arrays: each a
// new guid, with and without its options (gc off, autoLoad, meta).
let subdocs = null
function newSubdoc (r) {
  subdocs.count += 1
  const opts = { guid: 'sub-' + subdocs.seed + '-' + subdocs.count }
  if (r.int(2) === 0) opts.gc = false
  if (r.int(2) === 0) opts.autoLoad = true
  if (r.int(2) === 0) opts.meta = { title: r.pick(texts), n: r.int(9) }
  return new Y.Doc(opts)
}
const newChild = (r) => (subdocs !== null && r.int(3) === 0) ? newSubdoc(r) : newType(r)

function edit (doc, r) {
  const target = r.pick(types(doc))
  if (target instanceof Y.Map) {
    const key = r.pick(['a', 'b', 'c', '1', 'long key'])
    const choice = r.int(5)
    if (choice === 0 && target.has(key)) target.delete(key)
    else if (choice === 1) target.set(key, newChild(r))
    else target.set(key, value(r))
  } else if (target instanceof Y.Text) {
    const length = target.length
    const choice = r.int(6)
    if (choice === 0 && length > 0) { const i = r.int(length); target.delete(i, 1 + r.int(Math.min(4, length - i))) }
    else if (choice === 1 && length > 0) { const i = r.int(length); target.format(i, 1 + r.int(length - i), attributes(r)) }
    else if (choice === 2) target.insertEmbed(r.int(length + 1), embed(r), r.int(2) ? attributes(r) : undefined)
    else if (choice === 3) target.insert(r.int(length + 1), r.pick(texts), attributes(r))
    else target.insert(r.int(length + 1), r.pick(texts))
  } else if (target instanceof Y.Array) {
    const length = target.length
    const choice = r.int(4)
    if (choice === 0 && length > 0) { const i = r.int(length); target.delete(i, 1 + r.int(Math.min(3, length - i))) }
    else if (choice === 1) target.insert(r.int(length + 1), [newChild(r)])
    else target.insert(r.int(length + 1), [value(r), value(r)])
  } else if (target instanceof Y.XmlFragment) {
    // XmlElement is a fragment with attributes.
    const length = target.length
    const choice = r.int(5)
    if (choice === 0 && length > 0) target.delete(r.int(length), 1)
    else if (choice === 1 && target instanceof Y.XmlElement) target.setAttribute(r.pick(['class', 'id']), r.pick(['x', 'y']))
    else if (choice === 2) target.insert(r.int(length + 1), [new Y.XmlHook(r.pick(['hook', 'widget']))])
    else if (choice === 3) { const text = new Y.XmlText(); target.insert(r.int(length + 1), [text]); text.insert(0, r.pick(texts), attributes(r)) }
    else if (choice === 4 && r.int(3) === 0) target.insert(r.int(length + 1), [new Y.XmlElement(r.pick(['p', 'li'])), new Y.XmlText()])
    else target.insert(r.int(length + 1), [new Y.XmlElement(r.pick(['p', 'li']))])
  }
}

function history (cmd) {
  const r = generator(cmd.seed)
  subdocs = cmd.subdocs ? { seed: cmd.seed, count: 0 } : null
  const clients = [7, 1000003, 3000000000]
  const docs = clients.map((client) => { const d = new Y.Doc({ gc: cmd.gc }); d.clientID = client + cmd.seed; return d })
  const steps = []
  const queue = []
  for (let step = 0; step < cmd.edits; step++) {
    const author = r.int(docs.length)
    const doc = docs[author]
    const before = Y.encodeStateVector(doc)
    doc.transact(() => { for (let i = 0, n = 1 + r.int(3); i < n; i++) edit(doc, r) })
    const v1 = Y.encodeStateAsUpdate(doc, before)
    const v2 = Y.encodeStateAsUpdateV2(doc, before)
    steps.push({ v1: b64(v1), v2: b64(v2), v1ToV2: b64(Y.convertUpdateFormatV1ToV2(v1)), v2ToV1: b64(Y.convertUpdateFormatV2ToV1(v2)), svFromV2: b64(Y.encodeStateVectorFromUpdateV2(v2)) })
    for (let other = 0; other < docs.length; other++) if (other !== author) queue.push([other, v2])
    // Deliver some updates, out of order (some wait as pending).
    for (let i = 0, n = r.int(3); i < n && queue.length > 0; i++) {
      const [to, update] = queue.splice(r.int(queue.length), 1)[0]
      Y.applyUpdateV2(docs[to], update)
    }
  }
  // Half the histories end with a replica still holding pending structs; the others converge.
  if (cmd.seed % 2 === 0) for (const [to, update] of queue) Y.applyUpdateV2(docs[to], update)
  const merges = []
  for (let round = 0; round < 4; round++) {
    const inputs = []
    for (let i = 0, n = 1 + r.int(5); i < n; i++) inputs.push(r.int(steps.length))
    merges.push({ inputs, v2: b64(Y.mergeUpdatesV2(inputs.map((i) => unb64(steps[i].v2)))) })
  }
  const replicas = docs.map((doc) => {
    const v2 = Y.encodeStateAsUpdateV2(doc)
    const fresh = new Y.Doc({ gc: cmd.gc })
    Y.applyUpdateV2(fresh, v2)
    const sv = Y.encodeStateVector(docs[r.int(docs.length)])
    const v1 = Y.encodeStateAsUpdate(doc)
    return {
      v1: b64(v1),
      v1ToV2: b64(Y.convertUpdateFormatV1ToV2(v1)),
      v2: b64(v2),
      sv: b64(sv),
      diffV2: b64(Y.diffUpdateV2(v2, sv)),
      freshStateV2: b64(Y.encodeStateAsUpdateV2(fresh, sv)),
      freshV1: b64(Y.encodeStateAsUpdate(fresh)),
      freshV2: b64(Y.encodeStateAsUpdateV2(fresh)),
      json: JSON.stringify({ m: doc.getMap('m').toJSON(), a: doc.getArray('a').toJSON(), t: doc.getText('t').toJSON() }),
      subdocGuids: Array.from(fresh.getSubdocGuids()).sort()
    }
  })
  return { steps, merges, replicas, subdocs: subdocs === null ? 0 : subdocs.count }
}

const rl = readline.createInterface({ input: process.stdin })
rl.on('line', (line) => {
  let reply
  try {
    const cmd = JSON.parse(line)
    if (cmd.op !== 'history') throw new Error('unknown op ' + cmd.op)
    reply = { ok: true, ...history(cmd) }
  } catch (error) {
    reply = { ok: false, error: String(error && error.stack || error) }
  }
  process.stdout.write(JSON.stringify(reply) + '\n')
})
