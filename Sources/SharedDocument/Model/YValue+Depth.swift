extension YValue {
    /// Whether the value has more than `limit` levels, itself being level 1 (`[[null]]` has
    /// three), found with an explicit stack. Updates are read with the same bound
    /// (``UpdateDecodingError/maximumNesting``), so whatever the API accepts reads back.
    func nests(deeperThan limit: Int) -> Bool {
        var stack: [(value: YValue, level: Int)] = [(self, 1)]
        while let (value, level) = stack.popLast() {
            if level > limit { return true }
            switch value {
            case .array(let values): for element in values { stack.append((element, level + 1)) }
            case .object(let object): for (_, element) in object { stack.append((element, level + 1)) }
            default: continue
            }
        }
        return false
    }

    /// Throws ``SharedDocumentError/Kind/nestingTooDeep`` for values an update could not carry.
    static func checkNesting(_ values: [YValue]) throws(SharedDocumentError) {
        for value in values {
            switch value {
            case .array, .object:
                if value.nests(deeperThan: UpdateDecodingError.maximumNesting) { throw SharedDocumentError(.nestingTooDeep) }
            default:
                continue  // scalars: the common case, no stack
            }
        }
    }
}
