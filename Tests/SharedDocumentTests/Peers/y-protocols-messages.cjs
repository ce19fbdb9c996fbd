// Prints, as one JSON line of hex strings, the messages y-protocols writes for a small document
// (sync steps, update, awareness, permission denied, query awareness): SyncMessageTests reads
// them with our decoder and must write the same bytes back.
const Y = require('yjs')
const sync = require('y-protocols/dist/sync.cjs')
const awareness = require('y-protocols/dist/awareness.cjs')
const auth = require('y-protocols/dist/auth.cjs')
const encoding = require('lib0/dist/encoding.cjs')
const hex = b => Buffer.from(b).toString('hex')
const doc = new Y.Doc(); doc.clientID = 7
doc.getMap('m').set('k', 'v'); doc.getText('t').insert(0, 'héllo')
const msg = f => { const e = encoding.createEncoder(); f(e); return hex(encoding.toUint8Array(e)) }
const out = {}
out.step1 = msg(e => { encoding.writeVarUint(e, 0); sync.writeSyncStep1(e, doc) })
out.step2 = msg(e => { encoding.writeVarUint(e, 0); sync.writeSyncStep2(e, doc, new Uint8Array([0])) })
out.update = msg(e => { encoding.writeVarUint(e, 0); sync.writeUpdate(e, Y.encodeStateAsUpdate(doc)) })
const a = new awareness.Awareness(doc); a.setLocalState({ user: { name: 'Zoë', color: '#ff0' }, cursor: null })
out.awareness = msg(e => { encoding.writeVarUint(e, 1); encoding.writeVarUint8Array(e, awareness.encodeAwarenessUpdate(a, [7])) })
a.setLocalState(null)
out.awarenessLeft = msg(e => { encoding.writeVarUint(e, 1); encoding.writeVarUint8Array(e, awareness.encodeAwarenessUpdate(a, [7])) })
out.denied = msg(e => { encoding.writeVarUint(e, 2); auth.writePermissionDenied(e, 'read-only token for "board"') })
out.query = msg(e => { encoding.writeVarUint(e, 3) })
out.sv = hex(Y.encodeStateVector(doc)); out.full = hex(Y.encodeStateAsUpdate(doc))
console.log(JSON.stringify(out))
process.exit(0)
