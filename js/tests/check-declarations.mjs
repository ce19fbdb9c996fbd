/*
 * Checks js/index.d.ts against the JavaScript it declares: every value the module exports is
 * declared and every declared value is exported, with the same kind (function or not); a
 * function takes no more parameters than it declares; a declared literal (PROTOCOL_VERSION: 1)
 * is the exported value; the members of the StateHubSync and StateHubBridge objects exist with
 * their declared kind. Uses Debian's TypeScript (node-typescript) to read the declarations.
 *
 *   NODE_PATH=/usr/share/nodejs node js/tests/check-declarations.mjs
 */
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

const require = createRequire(import.meta.url)
const ts = require('typescript')
const here = path.dirname(fileURLToPath(import.meta.url))
const declarations = path.join(here, '..', 'index.d.ts')
const exported = await import(path.join(here, '..', 'index.mjs'))

const program = ts.createProgram([declarations], { strict: true, noEmit: true, types: [] })
const checker = program.getTypeChecker()
const source = program.getSourceFile(declarations)
const diagnostics = ts.getPreEmitDiagnostics(program)
const failures = diagnostics.map((d) => 'index.d.ts: ' + ts.flattenDiagnosticMessageText(d.messageText, '\n'))

const moduleSymbol = checker.getSymbolAtLocation(source)
const declared = new Map()
for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
  if (!(target.flags & ts.SymbolFlags.Value)) continue   // types and interfaces have no runtime value
  declared.set(symbol.name, checker.getTypeOfSymbolAtLocation(target, source))
}

function parameterCount(type) {
  return Math.max(0, ...type.getCallSignatures().map((signature) => signature.parameters.length))
}

function compare(name, type, value) {
  const callable = type.getCallSignatures().length > 0
  if (callable !== (typeof value === 'function')) {
    failures.push(`${name}: declared ${callable ? 'a function' : 'a value'}, exported ${typeof value}`)
    return
  }
  if (callable && value.length > parameterCount(type)) {
    failures.push(`${name}: takes ${value.length} parameters, declares ${parameterCount(type)}`)
  }
  if (type.isLiteral && type.isLiteral() && type.value !== value) {
    failures.push(`${name}: declared ${JSON.stringify(type.value)}, exported ${JSON.stringify(value)}`)
  }
  if (!callable && value !== null && typeof value === 'object') {
    for (const member of type.getProperties()) {
      const memberType = checker.getTypeOfSymbolAtLocation(member, source)
      if (!(member.name in value)) failures.push(`${name}.${member.name}: declared, missing`)
      else compare(`${name}.${member.name}`, memberType, value[member.name])
    }
  }
}

for (const [name, type] of declared) {
  if (!(name in exported)) failures.push(`${name}: declared, not exported by index.mjs`)
  else compare(name, type, exported[name])
}
for (const name of Object.keys(exported)) {
  if (!declared.has(name)) failures.push(`${name}: exported by index.mjs, not declared in index.d.ts`)
}

if (failures.length) {
  console.error(failures.map((f) => 'FAIL ' + f).join('\n'))
  process.exit(1)
}
console.log(`index.d.ts matches index.mjs: ${declared.size} values checked`)
