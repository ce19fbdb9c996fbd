/// The Yjs (node) and Yrs (python3 + pycrdt) halves of `statehub bench crdt`, written to a
/// temporary folder at run time. Each reads a workload file and prints one JSON line:
/// per repetition the edit, encode and apply times (ms of process CPU time), then the update (base64) and the
/// memory of one document loaded from it (bytes: the heap's growth over as many documents as the
/// fourth argument says, divided by that number).
enum CRDTPeerScripts {
    static let yjs = #"""
    'use strict'
    const Y = require('yjs')
    const fs = require('fs')
    // CPU time of this process (ms): steadier than wall time on a loaded machine.
    const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }
    const w = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))
    const reps = Number(process.argv[3])
    const documents = Number(process.argv[4])
    function edit (doc, ops) {
      if (w.kind === 'text') {
        const t = doc.getText('text')
        for (const [p, d, s] of ops) { if (d > 0) t.delete(p, d); if (s.length > 0) t.insert(p, s) }
      } else {
        const a = doc.getArray('array')
        for (const [, , s] of ops) a.push([Number(s)])
      }
    }
    function read (doc) { return w.kind === 'text' ? doc.getText('text').toString().length : doc.getArray('array').length }
    const out = { edit: [], encode: [], apply: [] }
    let update
    for (let r = 0; r < reps; r++) {
      const doc = new Y.Doc(); doc.clientID = 1
      let t0 = cpu()
      edit(doc, w.ops)
      if (w.concurrentOps) {
        const other = new Y.Doc(); other.clientID = 2
        edit(other, w.concurrentOps)
        Y.applyUpdate(other, Y.encodeStateAsUpdate(doc))
        Y.applyUpdate(doc, Y.encodeStateAsUpdate(other))
      }
      out.edit.push(cpu() - t0)
      t0 = cpu()
      update = Y.encodeStateAsUpdate(doc)
      out.encode.push(cpu() - t0)
      t0 = cpu()
      const fresh = new Y.Doc()
      Y.applyUpdate(fresh, update)
      read(fresh)
      out.apply.push(cpu() - t0)
    }
    // V8's heap after GC, and its buffers outside the heap (`external`).
    const used = () => { const m = process.memoryUsage(); return m.heapUsed + m.external }
    global.gc(); global.gc()
    const before = used()
    const kept = []
    for (let i = 0; i < documents; i++) { const d = new Y.Doc(); Y.applyUpdate(d, update); read(d); kept.push(d) }
    global.gc(); global.gc()
    out.memory = (used() - before) / kept.length
    out.update = Buffer.from(update).toString('base64')
    process.stdout.write(JSON.stringify(out) + '\n')
    """#

    static let yrs = #"""
    import base64, ctypes, gc, json, sys, time
    import pycrdt
    w = json.load(open(sys.argv[1]))
    reps = int(sys.argv[2])
    documents = int(sys.argv[3])
    def edit(doc, ops):
        if w["kind"] == "text":
            t = doc.get("text", type=pycrdt.Text)
            for p, d, s in ops:
                if d > 0:
                    del t[p:p + d]
                if s:
                    t.insert(p, s)
        else:
            a = doc.get("array", type=pycrdt.Array)
            for _, _, s in ops:
                a.append(int(s))
    def read(doc):
        return len(str(doc.get("text", type=pycrdt.Text))) if w["kind"] == "text" else len(doc.get("array", type=pycrdt.Array))
    # glibc's malloc heap in use (in-use chunks plus mmapped blocks), as the Swift side reads it:
    # Yrs's Rust allocates with malloc. Python's own small objects (the Doc wrapper) live in
    # pymalloc's arenas and are not counted, which only flatters Yrs.
    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]
    libc = ctypes.CDLL(None)
    libc.mallinfo2.restype = MallInfo2
    def heap_in_use():
        info = libc.mallinfo2()
        return info.uordblks + info.hblkhd
    out = {"edit": [], "encode": [], "apply": []}
    update = b""
    for _ in range(reps):
        doc = pycrdt.Doc(client_id=1)
        t0 = time.process_time()
        edit(doc, w["ops"])
        if w.get("concurrentOps"):
            other = pycrdt.Doc(client_id=2)
            edit(other, w["concurrentOps"])
            other.apply_update(doc.get_update())
            doc.apply_update(other.get_update())
        out["edit"].append((time.process_time() - t0) * 1000)
        t0 = time.process_time()
        update = doc.get_update()
        out["encode"].append((time.process_time() - t0) * 1000)
        t0 = time.process_time()
        fresh = pycrdt.Doc()
        fresh.apply_update(update)
        read(fresh)
        out["apply"].append((time.process_time() - t0) * 1000)
    gc.collect()
    before = heap_in_use()
    kept = []
    for _ in range(documents):
        d = pycrdt.Doc()
        d.apply_update(update)
        read(d)
        kept.append(d)
    gc.collect()
    out["memory"] = (heap_in_use() - before) / len(kept)
    out["update"] = base64.b64encode(update).decode()
    print(json.dumps(out))
    """#
}
