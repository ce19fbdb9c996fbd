# A Yrs replica (pycrdt) driven over stdin/stdout, one JSON command per line
# (see PeerProcess.swift). Text indices arrive in UTF-16 code units (Yjs's unit) and are
# converted to pycrdt's UTF-8 byte offsets here.
import base64
import json
import sys

import pycrdt

docs = {}
KINDS = {"map": pycrdt.Map, "array": pycrdt.Array, "text": pycrdt.Text}


def b64(data):
    return base64.b64encode(bytes(data)).decode()


def unb64(text):
    return base64.b64decode(text)


def utf8_offset(string, utf16_index):
    count = 0
    offset = 0
    for char in string:
        if count >= utf16_index:
            break
        count += 2 if ord(char) > 0xFFFF else 1
        offset += len(char.encode("utf-8"))
    return offset


def resolve(doc, path):
    root, kind, *steps = path
    node = doc.get(root, type=KINDS[kind])
    for step in steps:
        node = node[step]
    return node


def value(v):
    return v


def edit(doc, e):
    t = resolve(doc, e["path"])
    kind = e["kind"]
    # An edit generated from a state Yrs does not have can name another type or reach past the
    # end: refused here (skipped), because Yrs panics on a remove past the end of a text
    # instead of raising (seed 103: an array delete that reached an empty text).
    wanted = pycrdt.Map if kind.startswith("map") else pycrdt.Array if kind.startswith("array") else pycrdt.Text
    if not isinstance(t, wanted):
        raise TypeError("edit " + kind + " on " + type(t).__name__)
    if kind == "arrayDelete" and e["index"] + e["count"] > len(t):
        raise IndexError("array delete past the end")
    if kind == "textDelete" and e["index"] + e["count"] > sum(2 if ord(c) > 0xFFFF else 1 for c in str(t)):
        raise IndexError("text delete past the end")
    if "valueJSON" in e:
        e["value"] = json.loads(e["valueJSON"])
    if "valuesJSON" in e:
        e["values"] = json.loads(e["valuesJSON"])
    if kind == "mapSet":
        t[e["key"]] = value(e["value"])
    elif kind == "mapSetType":
        t[e["key"]] = KINDS[e["type"]]()
    elif kind == "mapDelete":
        if e["key"] in t:
            del t[e["key"]]
    elif kind == "arrayInsert":
        for offset, v in enumerate(e["values"]):
            t.insert(e["index"] + offset, value(v))
    elif kind == "arrayInsertType":
        t.insert(e["index"], KINDS[e["type"]]())
    elif kind == "arrayPush":
        t.extend([value(v) for v in e["values"]])
    elif kind == "arrayDelete":
        del t[e["index"]:e["index"] + e["count"]]
    elif kind == "textInsert":
        t.insert(utf8_offset(str(t), e["index"]), e["text"])
    elif kind == "textDelete":
        current = str(t)
        start = utf8_offset(current, e["index"])
        stop = utf8_offset(current, e["index"] + e["count"])
        del t[start:stop]
    else:
        raise ValueError("unknown edit " + kind)


def plain(v):
    if isinstance(v, float) and v.is_integer() and abs(v) < 2 ** 53:
        return int(v)
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, (bytes, bytearray)):
        return {"$bytes": list(v)}
    return v


def to_json(doc, roots):
    out = {}
    for name, kind in roots:
        node = doc.get(name, type=KINDS[kind])
        out[name] = str(node) if kind == "text" else plain(node.to_py())
    return json.dumps(out, ensure_ascii=False)


def handle(cmd):
    op = cmd["op"]
    doc = docs.get(cmd.get("id"))
    if op == "new":
        d = pycrdt.Doc(client_id=cmd["client"])
        docs[cmd["id"]] = (d, cmd.get("roots", []))
        for name, kind in cmd.get("roots", []):
            d.get(name, type=KINDS[kind])
        return {}
    d, roots = doc if doc else (None, [])
    if op == "edit":
        # Yrs may show more than the Swift document the edit was generated from (it
        # integrates structs after a clock gap where Yjs waits): skip an edit that no
        # longer fits rather than fail.
        try:
            with d.transaction():
                for e in cmd["edits"]:
                    edit(d, e)
        except (TypeError, AttributeError, IndexError, KeyError, ValueError, RuntimeError):
            return {"skipped": True}
        except BaseException as error:
            # A Rust panic inside Yrs (pyo3's PanicException is a BaseException) on an edit the
            # checks above let through: reported, so the test can retire this replica instead
            # of losing the whole process.
            if type(error).__name__ != "PanicException":
                raise
            return {"panicked": str(error)}
        return {}
    if op == "apply":
        d.apply_update(unb64(cmd["update"]))
        return {}
    if op == "encode":
        return {"update": b64(d.get_update(unb64(cmd["sv"])) if cmd.get("sv") else d.get_update())}
    if op == "sv":
        return {"sv": b64(d.get_state())}
    if op == "json":
        return {"json": to_json(d, roots)}
    if op == "jsonOfUpdate":
        fresh = pycrdt.Doc()
        for name, kind in cmd.get("roots", []):
            fresh.get(name, type=KINDS[kind])
        fresh.apply_update(unb64(cmd["update"]))
        return {"json": to_json(fresh, cmd.get("roots", []))}
    if op == "merge":
        return {"update": b64(pycrdt.merge_updates(*[unb64(u) for u in cmd["updates"]]))}
    raise ValueError("unknown op " + op)


for line in sys.stdin:
    try:
        reply = {"ok": True, **handle(json.loads(line))}
    except Exception as error:  # the test prints it and fails
        reply = {"ok": False, "error": repr(error)}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
