/// A script of StateHub's own whose text is copied once per process into memory that is never
/// freed, so that every engine's JavaScriptCore reads it in place instead of keeping a copy of
/// its own (docs/engine.md, "Memory per engine").
///
/// JavaScriptCore keeps the text of every evaluated script for as long as a function made from
/// it lives (lazy compilation and `Function.prototype.toString` read it): for a script installed
/// in every engine, such as the web globals, that is one copy per engine. Through
/// `JSScriptCreateReferencingImmortalASCIIText` (exported on Linux, private on Apple platforms)
/// the engines share this one. Only ASCII text can be shared that way; other text, or a platform
/// without the call, is evaluated as any script is.
///
/// Make one per script in a `static let`: the copy is never released.
final class ResidentScript: @unchecked Sendable {
    /// The text, for platforms and texts that cannot share it.
    let source: String
    /// The process-lifetime ASCII copy, or `nil` when the text is not ASCII.
    let bytes: UnsafePointer<CChar>?
    let count: Int

    // @unchecked Sendable: `bytes` is written once here and never again, nor freed.
    init(_ source: String) {
        self.source = source
        let utf8 = source.utf8
        count = utf8.count
        guard utf8.allSatisfy({ $0 < 0x80 }) else {
            bytes = nil
            return
        }
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(count, 1))
        _ = UnsafeMutableBufferPointer(start: buffer, count: count).initialize(from: utf8.lazy.map { CChar(bitPattern: $0) })
        bytes = UnsafePointer(buffer)
    }
}
